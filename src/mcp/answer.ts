// What a tool says back: the command's stdout, exactly as the CLI prints it, when it answered; else
// `isError` and the message the CLI printed for the refusal or failure, never a stack trace.
import type { RunResult } from './runner.js';

export interface TextContent {
  type: 'text';
  text: string;
}

export interface ToolAnswer {
  [key: string]: unknown;
  content: TextContent[];
  isError?: boolean;
}

export function refusal(message: string): ToolAnswer {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * `answers`: the exit codes whose stdout is the answer. Warnings and notes the command printed on
 * stderr follow as a second text, so the answer itself stays byte for byte what --json prints.
 */
export function answerOf(result: RunResult, answers: readonly number[], command: string): ToolAnswer {
  if (answers.includes(result.code) && result.stdout !== '') {
    const notes = result.stderr.trim();
    return { content: [{ type: 'text', text: result.stdout }, ...(notes === '' ? [] : [{ type: 'text' as const, text: notes }])] };
  }
  return refusal(failureMessage(result, command));
}

/**
 * The CLI's own words: its `error: ...` lines (with the indented lines that belong to them, as a
 * blocked plan's reasons) and the positioned `FILE:LINE:COL: ...` errors of a config it could not
 * read; warnings, notes and progress are left out.
 */
export function failureMessage(result: RunResult, command: string): string {
  const kept: string[] = [];
  let inError = false;
  for (const line of result.stderr.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('error: ') || POSITIONED_ERROR.test(line)) {
      kept.push(line);
      inError = true;
    } else if (inError && /^\s/.test(line)) kept.push(line);
    else inError = false;
  }
  if (kept.length > 0) return kept.join('\n');
  return `error: dbform ${command} exited with code ${result.code} and said nothing`;
}

/** `FILE:LINE:COL: message`, but not `FILE:LINE:COL: warning: ...`. */
const POSITIONED_ERROR = /^\S.*?:\d+:\d+: (?!warning: )/;
