// A JSON array body parsed item by item as its bytes arrive, so a list of 10,000 services never
// exists as one 13 MB string (nor as the chunks and their concatenation that the string is
// decoded from): each item's bytes are cut out at the commas and brackets of the array's own
// level, outside strings, and given to JSON.parse on their own. The result is what JSON.parse of
// the whole body gives, or the same failure: a body that does not start as an array is collected
// and parsed whole, and anything malformed fails (a differential test holds the two together).
// JSON's structural characters are ASCII, and UTF-8 never uses ASCII bytes inside a multi-byte
// character, so the bytes can be cut before they are decoded.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const HEAD_BYTES = 200;
/** JSON's whitespace (String.prototype.trim also drops a BOM and others, which JSON refuses). */
const JSON_SPACE = /^[ \t\n\r]*$/;
const BOM = [0xef, 0xbb, 0xbf];

export class JsonArrayReader {
  private mode: 'start' | 'array' | 'after' | 'whole' = 'start';
  /** Nesting inside the array's items (0: between items). */
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Bytes of the item being read, from earlier chunks; `itemFrom`: its start in the current chunk. */
  private carried: Buffer[] = [];
  private readonly items: unknown[] = [];
  private commas = 0;
  private whole: Buffer[] = [];
  private headBytes: Buffer[] = [];
  private headLength = 0;
  /** Bytes of a leading UTF-8 BOM seen so far; -1 once the body is past where one can be. */
  private bomSeen = 0;
  /** Set once the body is known to be malformed; the rest is only kept for the message. */
  private failure: unknown;

  /** The body's first bytes as text, for a message about a body that is not JSON. */
  get head(): string {
    return Buffer.concat(this.headBytes).toString('utf8');
  }

  write(chunk: Buffer): void {
    if (this.headLength < HEAD_BYTES) {
      this.headBytes.push(chunk.subarray(0, HEAD_BYTES - this.headLength));
      this.headLength += Math.min(chunk.length, HEAD_BYTES - this.headLength);
    }
    if (this.failure === undefined) {
      try {
        this.scan(chunk);
      } catch (err) {
        this.failure = err;
      }
    }
  }

  /** The parsed body (undefined when empty, as the transport reads an empty body); throws what JSON.parse throws. */
  end(): unknown {
    if (this.failure !== undefined) throw this.failure;
    if (this.mode === 'whole') {
      const text = Buffer.concat(this.whole).toString('utf8');
      return text.trim() === '' ? undefined : JSON.parse(text);
    }
    if (this.mode === 'start') return undefined;
    if (this.mode === 'array') throw new SyntaxError('Unexpected end of JSON input');
    return this.items;
  }

  private scan(chunk: Buffer): void {
    let i = 0;
    if (this.mode === 'start') i = this.findStart(chunk);
    if (this.mode === 'whole') {
      this.whole.push(i === 0 ? chunk : chunk.subarray(i));
      return;
    }
    let itemFrom = i;
    for (; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (this.mode === 'after') {
        if (!WHITESPACE.has(c)) throw new SyntaxError('Unexpected non-whitespace character after JSON');
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (this.depth > 0 && (c === 0x7d || c === 0x5d)) this.depth--;
      else if (this.depth === 0 && (c === COMMA || c === 0x5d)) {
        this.finishItem(chunk.subarray(itemFrom, i), c === 0x5d);
        itemFrom = i + 1;
        if (c === 0x5d) this.mode = 'after';
      }
    }
    if (this.mode === 'array' && itemFrom < chunk.length) this.carried.push(chunk.subarray(itemFrom));
  }

  /** Skips a BOM and whitespace to the `[`; a body that starts otherwise is read whole. Returns where scanning goes on. */
  private findStart(chunk: Buffer): number {
    let i = 0;
    for (; i < chunk.length; i++) {
      const c = chunk[i]!;
      // undici's text() drops a whole UTF-8 BOM at the very start (a part of one stays, and fails).
      if (this.bomSeen >= 0 && this.bomSeen < 3 && c === BOM[this.bomSeen]) {
        this.bomSeen++;
        continue;
      }
      if (this.bomSeen === 1 || this.bomSeen === 2) throw new SyntaxError('Unexpected token in JSON at position 0');
      this.bomSeen = -1;
      if (WHITESPACE.has(c)) continue;
      this.mode = c === 0x5b ? 'array' : 'whole';
      return c === 0x5b ? i + 1 : i;
    }
    return i;
  }

  private finishItem(tail: Buffer, closing: boolean): void {
    const bytes = this.carried.length === 0 ? tail : Buffer.concat([...this.carried, tail]);
    this.carried = [];
    const text = bytes.toString('utf8');
    // `[]` (or `[ ]`): no item; anything else empty between separators (`[1,]`, `[,1]`) is malformed.
    if (closing && this.commas === 0 && this.items.length === 0 && JSON_SPACE.test(text)) return;
    this.items.push(JSON.parse(text));
    if (!closing) this.commas++;
  }
}
