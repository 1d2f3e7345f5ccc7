// The planner's public surface. Pure: imports only src/model and the kinds' pure parts (and
// node:crypto for hashes).
export { planChanges, type PlanOptions } from './plan-changes.js';
export type { ClaimedElsewhere } from './context.js';
export { driftJson, fromPlanJson, toPlanJson, type PlanJson } from './plan-json.js';
export {
  canonicalJson,
  findStaleAddresses,
  fingerprintLive,
  fingerprintSubjects,
  sha256,
  stateFingerprint,
  type FingerprintSubject,
} from './fingerprint.js';
export { verbOf, type ResourceVerb } from './summary.js';
export { SENSITIVE } from './drafts.js';
export { findPlanDifference, withSavedInputs } from './saved-plan.js';
export { managedParents, type ParentsToRead } from './managed.js';
export { findDrift } from './drift.js';
export { appliedRecorder, appliedRecords, sameApplied } from './applied.js';
export { desiredAddresses } from './match.js';
