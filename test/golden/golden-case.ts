// Reads one golden case directory: desired.yaml (through the real config loader), live.json
// (wire DTOs, mapped by the real client mapping), lock.json and options.json when present. A
// `generate.json` instead builds a large case in memory (see generate.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PeeringDto, ServiceDto, VpcDto } from '../../src/api/dto.js';
import { loadConfigInputs } from '../../src/config/index.js';
import { mapLive } from '../../src/kinds/index.js';
import { emptyLockfile, formatDiagnostic, parseLockfileJson, type DesiredState, type LivePeering, type LiveService, type LiveState, type LiveVpc, type Lockfile } from '../../src/model/index.js';
import type { PlanOptions } from '../../src/planner/index.js';
import { generateCase, generatedLock, type GenerateSpec } from './generate.js';

export interface LiveJson {
  vpcs?: Array<VpcDto & { peerings?: PeeringDto[] }>;
  services?: ServiceDto[];
}

export interface GoldenInput {
  desired: DesiredState;
  live: LiveState;
  lock: Lockfile;
  options: PlanOptions;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

export function loadDesiredYaml(text: string): DesiredState {
  const result = loadConfigInputs([{ file: 'desired.yaml', content: text }], { env: { DBFORM_PROJECT_ID: 'proj-demo' } });
  if (!result.ok) throw new Error(`desired.yaml is invalid:\n${result.errors.map(formatDiagnostic).join('\n')}`);
  return result.value;
}

export function mapLiveJson(projectId: string, json: LiveJson): LiveState {
  return {
    projectId,
    vpcs: (json.vpcs ?? []).map((v) => ({ ...(mapLive('vpc', v) as LiveVpc), peerings: (v.peerings ?? []).map((p) => mapLive('peering', p, String(v.id)) as LivePeering) })),
    services: (json.services ?? []).map((s) => mapLive('service', s) as LiveService),
  };
}

function readOptions(dir: string): PlanOptions {
  const path = join(dir, 'options.json');
  if (!existsSync(path)) return { replace: [], target: [], allowDataLoss: false };
  const o = readJson<{ replace?: string[]; target?: string[]; allow_data_loss?: boolean }>(path);
  return { replace: o.replace ?? [], target: o.target ?? [], allowDataLoss: o.allow_data_loss ?? false };
}

function readLock(dir: string, projectId: string): Lockfile {
  const path = join(dir, 'lock.json');
  const generated = join(dir, 'generate.json');
  if (existsSync(generated) && readJson<GenerateSpec>(generated).locked) {
    return { version: 1, projectId, resources: generatedLock(readJson<GenerateSpec>(generated)) };
  }
  if (!existsSync(path)) return emptyLockfile(projectId);
  const parsed = parseLockfileJson(readJson(path));
  if (!parsed.ok) throw new Error(`${path}: ${parsed.errors.join('; ')}`);
  return parsed.value;
}

export function loadGoldenCase(dir: string): GoldenInput {
  const generated = join(dir, 'generate.json');
  const { yaml, live } = existsSync(generated)
    ? generateCase(readJson<GenerateSpec>(generated))
    : { yaml: readFileSync(join(dir, 'desired.yaml'), 'utf8'), live: readJson<LiveJson>(join(dir, 'live.json')) };
  const desired = loadDesiredYaml(yaml);
  return { desired, live: mapLiveJson(desired.projectId, live), lock: readLock(dir, desired.projectId), options: readOptions(dir) };
}
