// Both sides are brought to one vocabulary before comparing, so values the API reports
// differently from how the config spells them never produce a perpetual diff (USERS.md item 13).
import type { LiveReplicaSet, LiveService } from '../model/index.js';

// The vocabulary the field descriptors compare in (src/model/fields/values.ts), for the planner's other readers.
export { isLivePaused, isShared, liveEnvironment, serviceTypeOf, sizeEquals, sizeWire, typeMatches } from '../model/index.js';

// The emulator never reports DELETED itself, but a real API may: both mean the service is going.
const GONE_SERVICE = new Set(['DELETING', 'DELETED']);
const GONE_REPLICA_SET = new Set(['deleting']);

export const isServiceGone = (s: LiveService): boolean => GONE_SERVICE.has(s.status);
export const isReplicaSetGone = (r: LiveReplicaSet): boolean => GONE_REPLICA_SET.has(r.status);
