// The state file: the whole world as JSON, written atomically after each mutation (coalesced)
// and read back at start. Timelines hold absolute times, so a restart continues them.
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../lockfile/atomic-write.js';
import { EmulatorConfigError } from './errors.js';
import { checkPersistedProject } from './persistence-check.js';
import type { Seed } from './seed.js';
import { World, type ProjectRecord, type ReplicaSetRecord, type ServiceRecord, type VpcRecord } from './store.js';

const FORMAT = 'dbform-emulator-state';

export type PersistedVpc = Omit<VpcRecord, 'peerings' | 'attached'> & { peerings: Array<VpcRecord['peerings'] extends Map<string, infer P> ? P : never> };
export type PersistedService = Omit<ServiceRecord, 'replicaSets'> & { replicaSets: ReplicaSetRecord[] };
export interface PersistedProject {
  id: string;
  name: string;
  vpcs: PersistedVpc[];
  services: PersistedService[];
}

export function serializeWorld(world: World): string {
  const projects: PersistedProject[] = [];
  for (const p of world.projects.values()) {
    projects.push({
      id: p.id,
      name: p.name,
      vpcs: [...p.vpcs.values()].map(({ attached: _attached, peerings, ...rest }) => ({ ...rest, peerings: [...peerings.values()] })),
      services: [...p.services.values()].map((s) => ({ ...s, replicaSets: [...s.replicaSets.values()] })),
    });
  }
  const tokens = [...world.tokens.values()].map((t) =>
    t.kind === 'pat' ? { token: t.token, kind: t.kind, project_id: t.projectId } : { token: t.token, kind: t.kind, project_ids: t.projectIds },
  );
  const keyPairs = [...world.keyPairs.values()].map((k) => ({ public_key: k.publicKey, secret_key: k.secretKey, project_id: k.projectId }));
  return JSON.stringify({ format: FORMAT, version: 1, projects, tokens, key_pairs: keyPairs });
}

/**
 * Reads a state file; undefined when it does not exist. Anything unreadable is a clear error.
 * Tokens come back in seed-file form (`project_id`, `project_ids`), for parseSeed to check.
 */
export function readStateFile(path: string): { projects: PersistedProject[]; tokens: unknown[]; keyPairs: unknown } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new EmulatorConfigError(`cannot read emulator state file ${path}: ${(err as Error).message}`);
  }
  const fail = (problem: string): never => {
    throw new EmulatorConfigError(`emulator state file ${path} is corrupt: ${problem} (move it away to start with a fresh world)`);
  };
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    return fail(`not valid JSON (${(err as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || data.format !== FORMAT) fail(`"format" must be "${FORMAT}"`);
  if (data.version !== 1) fail(`unsupported "version" ${JSON.stringify(data.version)}`);
  if (!Array.isArray(data.projects)) fail('"projects" must be a list');
  if (!Array.isArray(data.tokens)) fail('"tokens" must be a list');
  (data.projects as unknown[]).forEach((p, i) => {
    const problem = checkPersistedProject(p, `projects[${i}]`);
    if (problem) fail(problem);
  });
  // key_pairs is checked with the tokens, by parseSeed; a file written before it existed has none.
  return { projects: data.projects as PersistedProject[], tokens: data.tokens as unknown[], keyPairs: data.key_pairs };
}

/** Builds the world: projects and tokens from the seed, resources from the saved projects of the same ID. */
export function buildWorld(seed: Seed, saved: PersistedProject[] = []): World {
  const world = new World();
  const savedById = new Map(saved.map((p) => [p.id, p]));
  for (const { id, name } of seed.projects) {
    const project = world.addProject(id, name);
    const s = savedById.get(id);
    if (s) restoreProject(world, project, s);
  }
  for (const t of seed.tokens) world.tokens.set(t.token, t);
  for (const k of seed.keyPairs) world.keyPairs.set(k.publicKey, k);
  return world;
}

function restoreProject(world: World, project: ProjectRecord, saved: PersistedProject): void {
  for (const v of saved.vpcs) {
    world.reserveId(v.id);
    const vpc: VpcRecord = { ...v, peerings: new Map(v.peerings.map((p) => [p.id, p])), attached: new Set() };
    for (const p of v.peerings) world.reserveId(p.id);
    project.vpcs.set(vpc.id, vpc);
  }
  for (const s of saved.services) {
    for (const id of [s.id, s.resourceId, ...s.replicaSets.map((r) => r.id)]) world.reserveId(id);
    const svc: ServiceRecord = { ...s, replicaSets: new Map(s.replicaSets.map((r) => [r.id, r])) };
    project.services.set(svc.id, svc);
    if (svc.vpc) project.vpcs.get(svc.vpc.vpcId)?.attached.add(svc.id);
  }
}

/**
 * Writes the state file after mutations. Concurrent requests share writes: while one write runs,
 * every save() asked meanwhile waits for a single next write that includes all their changes.
 */
export class StateWriter {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => string,
  ) {}

  save(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    this.queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  /** Resolves once no write is running or queued. */
  async flush(): Promise<void> {
    while (this.queued ?? this.running) await (this.queued ?? this.running)!.catch(() => undefined);
  }

  private start(): Promise<void> {
    const write: Promise<void> = writeFileAtomic(this.path, this.snapshot()).finally(() => {
      if (this.running === write) this.running = undefined;
    });
    this.running = write;
    return write;
  }
}
