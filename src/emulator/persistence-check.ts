// Shape checks for a loaded state file, so a damaged file is named precisely instead of crashing
// a request later. Returns the first problem as "path: what".

type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string' && v.length > 0;
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const bool: Check = (v) => typeof v === 'boolean';
const oneOf = (...values: string[]): Check => (v) => typeof v === 'string' && values.includes(v);
const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const size: Check = (v) => v === 'shared' || (obj(v) && num(v.cpuMillis) && num(v.memoryGbs));
const ha: Check = (v) => obj(v) && num(v.replicaCount) && num(v.syncReplicaCount);
const env = oneOf('DEV', 'PROD');

function fields(v: unknown, at: string, spec: Record<string, Check>, optional: Record<string, Check> = {}): string | undefined {
  if (!obj(v)) return `${at}: must be an object`;
  for (const [key, check] of Object.entries(spec)) if (!check(v[key])) return `${at}.${key}: missing or invalid`;
  for (const [key, check] of Object.entries(optional)) if (v[key] !== undefined && !check(v[key])) return `${at}.${key}: invalid`;
  return undefined;
}

function list(v: unknown, at: string, each: (item: unknown, at: string) => string | undefined): string | undefined {
  if (!Array.isArray(v)) return `${at}: must be a list`;
  for (let i = 0; i < v.length; i++) {
    const problem = each(v[i], `${at}[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

const steps: Check = (v) => Array.isArray(v) && v.length > 0 && v.every((s) => obj(s) && str(s.status) && num(s.until));

function checkService(s: unknown, at: string): string | undefined {
  return (
    fields(
      s,
      at,
      {
        id: str, name: str, regionCode: str, serviceType: oneOf('TIMESERIESDB', 'POSTGRES'), createdAt: num, resourceId: str,
        size, ha, environment: env, pooler: bool, status: oneOf('READY', 'PAUSED', 'FAILED'),
      },
      {
        backupAt: num,
        timeline: (t) => obj(t) && steps(t.steps) && oneOf('READY', 'PAUSED', 'GONE')(t.then) && (t.size === undefined || size(t.size)) && (t.ha === undefined || ha(t.ha)),
        vpc: (a) => obj(a) && str(a.vpcId) && num(a.until) && (a.pending === undefined || oneOf('attach', 'detach')(a.pending)),
        forkedFrom: (f) => obj(f) && str(f.projectId) && str(f.serviceId),
        addons: (a) => Array.isArray(a) && a.every(oneOf('time-series', 'ai')),
      },
    ) ??
    list((s as Record<string, unknown>).replicaSets, `${at}.replicaSets`, (r, rat) =>
      fields(
        r,
        rat,
        { id: str, name: str, cpuMillis: num, memoryGbs: num, nodes: num, pooler: bool, environment: env, status: oneOf('active', 'error') },
        { timeline: (t) => obj(t) && oneOf('creating', 'resizing', 'deleting')(t.status) && num(t.until) && oneOf('active', 'GONE')(t.then) },
      ),
    )
  );
}

export function checkPersistedProject(p: unknown, at: string): string | undefined {
  const top = fields(p, at, { id: str, name: str });
  if (top) return top;
  const project = p as Record<string, unknown>;
  return (
    list(project.vpcs, `${at}.vpcs`, (v, vat) =>
      fields(v, vat, { id: str, name: str, cidr: str, regionCode: str }, { readyAt: num }) ??
      list((v as Record<string, unknown>).peerings, `${vat}.peerings`, (pe, pat) =>
        fields(pe, pat, { id: str, peerAccountId: str, peerRegionCode: str, peerVpcId: str, settlesAt: num, fails: bool, provisionedId: str }, { approvedUntil: num, awaitsAcceptance: bool, deletingUntil: num }),
      ),
    ) ?? list(project.services, `${at}.services`, checkService)
  );
}
