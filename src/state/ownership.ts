// The one ownership authority (SPEC section 13). Every state read returns through here, so no
// command can plan, send or print anything for a state that binds what another workspace owns:
// destroy, sweep, output, import and the rest all pass through a store's read(). A check run
// after a request is sent (the claims of a write) is too late: a deleteService cannot be taken back.
import { DbformError, type Lockfile } from '../model/index.js';
import type { ForeignClaim, ReadOptions, StateSnapshot } from './port.js';

/** A workspace's state is not its own (a copy, a restore, a hand edit): nothing may act on it. */
export class OwnershipError extends DbformError {}

/** What the other workspaces of the project hold, as the store found them. */
export interface OtherWorkspaces {
  /** resource ID -> the other workspace and address that bind it. */
  claims: Map<string, ForeignClaim>;
  /** The other workspaces whose state has this state's lineage, with where that state lives. */
  sameLineage: Array<{ workspace: string; location: string }>;
}

export interface OwnershipInput {
  lockfile: Lockfile;
  projectId: string;
  workspace: string;
  /** Where this state lives (a path, or the URL without its password). */
  location: string;
  others: OtherWorkspaces;
  /** PostgreSQL: the lineage the row was created with (recorded by the database, never rewritten). */
  createdLineage?: string | null;
  options?: ReadOptions;
}

const REFUSAL = 'Nothing was planned, sent or printed';


/** The snapshot of a state this workspace owns; OwnershipError naming every problem otherwise. */
export function ownedSnapshot(input: OwnershipInput): StateSnapshot {
  const problems = [...lineageProblems(input), ...(input.options?.foreignBindings === 'allow' ? [] : claimProblems(input))];
  if (problems.length > 0) {
    throw new OwnershipError(`${problems.join('\n')}\n${REFUSAL} for workspace "${input.workspace}" of project ${input.projectId}.`);
  }
  return { lockfile: input.lockfile, claimedElsewhere: input.others.claims };
}

function lineageProblems(input: OwnershipInput): string[] {
  const lineage = input.lockfile.lineage;
  if (lineage === undefined) return [];
  const out: string[] = [];
  if (input.createdLineage && input.createdLineage !== lineage) {
    out.push(
      `the state of workspace "${input.workspace}" in ${input.location} was created with lineage ${input.createdLineage} but now holds a document of lineage ${lineage}: ` +
        "another state's document was restored or copied over it; restore this workspace's own state.",
    );
  }
  for (const other of input.others.sameLineage) {
    out.push(
      `the state of workspace "${input.workspace}" (${input.location}) and the state of workspace "${other.workspace}" (${other.location}) have the same lineage ${lineage}: ` +
        'one is a copy of the other (a copied lockfile or a restored row); remove the copy.',
    );
  }
  return out;
}

function claimProblems(input: OwnershipInput): string[] {
  const out: string[] = [];
  for (const address of Object.keys(input.lockfile.resources).sort()) {
    const id = input.lockfile.resources[address]!.id;
    const other = input.others.claims.get(id);
    if (other === undefined) continue;
    out.push(
      `resource ID ${id} is bound to ${address} in workspace "${input.workspace}" and to ${other.address} in workspace "${other.workspace}"; ` +
        `a resource belongs to one workspace only: if this binding is the mistake (an edited, restored or copied state), ` +
        `\`dbform state rm ${address} --workspace ${input.workspace}\` forgets it.`,
    );
  }
  return out;
}
