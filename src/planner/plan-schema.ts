import { OPERATION_IDS } from '../kinds/index.js';
// schemas/plan.schema.json is written by hand, except the `op` enum of an action: that is the op
// table's keys (src/model/operations.ts), written in by `npm run schema` and compared by a test.

const OP_ENUM = /("op": \{\n( *)"enum": \[)[^\]]*(\])/;
const WIDTH = 110;

/** `schemaText` with the action's `op` enum replaced by the op table's keys, wrapped at 110 columns. */
export function withOperationEnum(schemaText: string): string {
  const match = OP_ENUM.exec(schemaText);
  if (!match) throw new Error('schemas/plan.schema.json has no "op": { "enum": [...] } to fill in');
  const indent = match[2]!;
  const lines: string[] = [];
  let line = '';
  for (const item of OPERATION_IDS.map((op) => JSON.stringify(op))) {
    if (line !== '' && indent.length + 2 + line.length + 2 + item.length + 1 > WIDTH) {
      lines.push(`${line},`);
      line = '';
    }
    line = line === '' ? item : `${line}, ${item}`;
  }
  lines.push(line);
  const body = lines.map((l) => `${indent}  ${l}`).join('\n');
  return schemaText.replace(OP_ENUM, (_m, open: string, _indent: string, close: string) => `${open}\n${body}\n${indent}${close}`);
}
