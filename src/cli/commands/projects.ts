import type { Command } from 'commander';
import { action } from '../errors.js';
import { addApiOptions, type ApiOptions, type GlobalOptions } from '../options.js';
import { cliProcess } from '../process.js';

interface ProjectsFlags extends ApiOptions, GlobalOptions {
  json?: boolean;
}

export function registerProjects(program: Command): void {
  const cmd = program
    .command('projects')
    .description('list the projects the API credential can see (a key pair: its project, from GET /auth/info where the API serves it)')
    .option('--json', 'print a JSON array of {id, name}');
  addApiOptions(cmd).action(
    action(async (_flags: ProjectsFlags, command: Command) => {
      const flags = command.optsWithGlobals<ProjectsFlags>();
      const { openApiContext } = await import('../api-context.js');
      const { terminalJson, terminalLine } = await import('../../model/terminal-text.js');
      const ctx = await openApiContext(flags);
      try {
        const projects = await ctx.client.credentialProjects();
        const rows = projects.map((p) => ({ id: String(p.id), name: String(p.name ?? '') })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        cliProcess().stdout.write(flags.json ? `${terminalJson(rows, 2)}\n` : renderTable(rows.map((r) => ({ id: terminalLine(r.id), name: terminalLine(r.name) }))));
      } finally {
        await ctx.close();
      }
    }),
  );
}

function renderTable(rows: Array<{ id: string; name: string }>): string {
  const width = Math.max(2, ...rows.map((r) => r.id.length));
  const line = (id: string, name: string) => `${id.padEnd(width)}  ${name}`.trimEnd();
  return [line('ID', 'NAME'), ...rows.map((r) => line(r.id, r.name))].join('\n') + '\n';
}
