// The op table (src/model/operations.ts) is what the planner, client, executor and plan schema
// read; these tests hold it to the API it describes and to the rules SPEC sections 3 and 5 set.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { peeringRoutes } from '../../../src/emulator/routes/peerings.js';
import { replicaSetRoutes } from '../../../src/emulator/routes/replica-sets.js';
import { renameServiceRoute, serviceActionRoutes } from '../../../src/emulator/routes/service-actions.js';
import { serviceRoutes } from '../../../src/emulator/routes/services.js';
import { vpcRoutes } from '../../../src/emulator/routes/vpcs.js';
import { type OperationId } from '../../../src/model/index.js';
import { withOperationEnum } from '../../../src/planner/plan-schema.js';
import { CREATE_OPS, DELETE_OPS, OPERATION_IDS, OPERATIONS, operationPath, operationRisk, opRank } from '../../../src/kinds/index.js';

const PLAN_SCHEMA = join(import.meta.dirname, '..', '..', '..', 'schemas', 'plan.schema.json');
const change = (path: string, before: unknown, after: unknown) => ({ path, before, after, forcesReplace: false, sensitive: false });

describe('the op table', () => {
  it('names, for every op, a route the emulator serves (the keys of its request stats)', () => {
    // renameService is served where the dialect has it (tiger, SPEC section 15).
    const served = new Set([...vpcRoutes, ...peeringRoutes, ...serviceRoutes, ...serviceActionRoutes, renameServiceRoute, ...replicaSetRoutes].map((r) => `${r.method} ${r.template}`));
    for (const op of OPERATION_IDS) expect(served.has(`${OPERATIONS[op].api.method} ${OPERATIONS[op].api.route}`), op).toBe(true);
  });

  it('gives each op of one kind its own rank, so a resource chain has one order', () => {
    for (const kind of ['vpc', 'peering', 'service', 'replica_set']) {
      const ranks = OPERATION_IDS.filter((op) => OPERATIONS[op].kind === kind).map(opRank);
      expect(new Set(ranks).size, kind).toBe(ranks.length);
    }
    expect([...OPERATION_IDS].map(opRank).sort((a, b) => a - b)).toEqual(OPERATION_IDS.map((_, i) => i));
  });

  it('never lets a create be re-sent blindly, and only creates and deletes change what exists', () => {
    for (const op of OPERATION_IDS) {
      expect(OPERATIONS[op].effect === 'create', op).toBe(OPERATIONS[op].safety === 'create');
      if (OPERATIONS[op].effect === 'delete') expect(OPERATIONS[op].safety, op).toBe('checked');
    }
    expect([...CREATE_OPS]).toEqual(['createVPC', 'createVPCPeering', 'createService', 'forkService', 'createReplicaSet']);
    expect([...DELETE_OPS]).toEqual(['deleteVPC', 'deleteVPCPeering', 'deleteService', 'deleteReplicaSet']);
  });

  it('deletes run before creates on one resource, so a replace frees the name first', () => {
    for (const op of DELETE_OPS) for (const create of CREATE_OPS) expect(opRank(op) < opRank(create), `${op} before ${create}`).toBe(true);
  });

  it('rates setHAReplica by its changes: fewer replicas is an availability risk, more is none', () => {
    expect(operationRisk('setHAReplica', [change('ha.replicas', 2, 1)])).toBe('availability');
    expect(operationRisk('setHAReplica', [change('ha.replicas', 0, 2), change('ha.sync_replicas', 0, 1)])).toBe('none');
    expect(operationRisk('deleteService', [])).toBe('data-loss');
  });

  it('fills a route from IDs, encoding each, and says which one is missing', () => {
    expect(operationPath('enableReplicaPooler', { project_id: 'p 1', service_id: 's', replica_set_id: 'r/1' })).toBe('/projects/p%201/services/s/replicaSets/r%2F1/enablePooler');
    expect(() => operationPath('deleteVPC', { project_id: 'p' })).toThrow('deleteVPC needs vpc_id');
  });

  it('is the op enum of schemas/plan.schema.json (`npm run schema` writes it in)', () => {
    const text = readFileSync(PLAN_SCHEMA, 'utf8');
    expect(text).toBe(withOperationEnum(text));
    const ops: OperationId[] = JSON.parse(text).$defs.action.properties.op.enum;
    expect(ops).toEqual(OPERATION_IDS);
  });

  it('rewrites a stale op enum of the plan schema', () => {
    const text = readFileSync(PLAN_SCHEMA, 'utf8');
    const stale = text.replace('"createVPC", ', '"createVPC", "frobnicate", ');
    expect(stale).not.toBe(text);
    expect(withOperationEnum(stale)).toBe(text);
  });
});
