// The plan's dependency graph (SPEC section 14): `dbform graph` prints it as mermaid or DOT, and a
// markdown plan of more than 5 actions carries it as a collapsed mermaid block. An arrow runs from
// an action to one that waits for it (the order apply runs them in). Node names are the action IDs
// (a1, a2, ...); labels are the op and address, which mermaid and DOT each get escaped their way.
import type { Action, Plan } from '../../model/index.js';

export type GraphFormat = 'mermaid' | 'dot';

/** Markdown plans show the graph from this many actions on. */
export const GRAPH_IN_MARKDOWN_FROM = 6;

const mermaidText = (s: string) => s.replace(/&/g, '#amp;').replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
const dotText = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

const label = (a: Action) => `${a.op} ${a.address}${a.blocked !== undefined ? ' (blocked)' : ''}`;

function edges(plan: Plan): Array<[string, string]> {
  return plan.actions.flatMap((a) => a.dependsOn.map((d): [string, string] => [d, a.id]));
}

export function renderGraphMermaid(plan: Plan): string {
  const lines = ['flowchart LR'];
  for (const a of plan.actions) lines.push(`  ${a.id}["${mermaidText(label(a))}"]`);
  for (const [from, to] of edges(plan)) lines.push(`  ${from} --> ${to}`);
  const blocked = plan.actions.filter((a) => a.blocked !== undefined).map((a) => a.id);
  if (blocked.length > 0) lines.push('  classDef blocked stroke:#d00,stroke-width:2px', `  class ${blocked.join(',')} blocked`);
  return `${lines.join('\n')}\n`;
}

export function renderGraphDot(plan: Plan): string {
  const lines = ['digraph dbform {', '  rankdir=LR;', '  node [shape=box];'];
  for (const a of plan.actions) lines.push(`  ${a.id} [label="${dotText(label(a))}"${a.blocked !== undefined ? ', color=red' : ''}];`);
  for (const [from, to] of edges(plan)) lines.push(`  ${from} -> ${to};`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

export function renderGraph(plan: Plan, format: GraphFormat): string {
  return format === 'dot' ? renderGraphDot(plan) : renderGraphMermaid(plan);
}

/**
 * The collapsed block a markdown plan ends its head with, when it has enough actions to need it
 * and the graph leaves room in the comment (`budget` characters) for the resources themselves.
 */
export function graphMarkdownLines(plan: Plan, budget: number): string[] {
  if (plan.actions.length < GRAPH_IN_MARKDOWN_FROM) return [];
  const graph = renderGraphMermaid(plan).trimEnd();
  if (graph.length > budget) return [`The dependency graph of these ${plan.actions.length} actions is too large for a comment; \`dbform graph\` prints it.`, ''];
  return ['<details><summary>Dependency graph</summary>', '', '```mermaid', graph, '```', '</details>', ''];
}
