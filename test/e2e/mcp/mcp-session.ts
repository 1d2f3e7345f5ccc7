// `dbform mcp` as an assistant reaches it: the SDK's own client over stdio, spawning the built CLI
// in a workspace (test/e2e/apply/cli-harness.ts) with exactly that workspace's environment.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN } from '../../support/cli.js';
import type { Workspace } from '../apply/cli-harness.js';

export const CLIENT = { name: 'dbform-test', version: '1.2.3' } as const;

export interface ToolResult {
  /** Every text of the answer, in order; the first is the command's output or the refusal. */
  texts: string[];
  text: string;
  isError: boolean;
}

export interface McpSession {
  client: Client;
  /** `onProgress`: asks for progress notifications, and gets each one's message. */
  call(name: string, args?: Record<string, unknown>, onProgress?: (message: string) => void): Promise<ToolResult>;
  /** What the server wrote to stderr so far (stdout is the protocol). */
  stderr(): string;
  close(): Promise<void>;
}

const open: McpSession[] = [];

/** Closes every session a test left open. */
export async function closeSessions(): Promise<void> {
  await Promise.all(open.splice(0).map((s) => s.close()));
}

/** `cwd`: where the client starts the server (default: the workspace's directory). */
export async function connectMcp(ws: Workspace, args: string[] = [], env: NodeJS.ProcessEnv = {}, cwd = ws.dir): Promise<McpSession> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...ws.env, ...env })) if (v !== undefined) childEnv[k] = v;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], cwd, env: childEnv, stderr: 'pipe' });
  let stderr = '';
  transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ ...CLIENT });
  await client.connect(transport);
  const session: McpSession = {
    client,
    call: async (name, toolArgs = {}, onProgress) => {
      const options = onProgress ? { onprogress: (p: { message?: string }) => onProgress(p.message ?? '') } : undefined;
      const r = await client.callTool({ name, arguments: toolArgs }, undefined, options);
      const texts = (r.content as Array<{ type: string; text?: string }>).map((c) => {
        if (c.type !== 'text' || c.text === undefined) throw new Error(`${name} answered with ${c.type} content`);
        return c.text;
      });
      return { texts, text: texts[0] ?? '', isError: r.isError === true };
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
  open.push(session);
  return session;
}
