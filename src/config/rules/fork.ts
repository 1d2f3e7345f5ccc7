// fork.strategy PITR restores to a point in time, so it needs one, and only it takes one.
// A fork inherits region and type from its parent: a differing explicit value would plan a
// replacement right after the fork is created.
import type { Diagnostic } from '../../model/diagnostics.js';
import { parseRfc3339 } from '../../model/rfc3339.js';
import { diagnosticAt, type Entry } from '../merge.js';
import { entriesByKey, record, str, type Rule } from './rule.js';

/** True for an RFC 3339 date-time with a real calendar date, a `T` and an explicit offset. */
export const isRfc3339 = (text: string): boolean => parseRfc3339(text, { space: false }) !== undefined;

function checkTargetTime(service: Entry): Diagnostic[] {
  const fork = record(service.value, 'fork');
  if (!fork) return [];
  const where = `services.${service.key}.fork`;
  const strategy = str(fork, 'strategy');
  const targetTime = fork.target_time;
  if (strategy === 'PITR' && targetTime === undefined) {
    const message = `${where}: strategy PITR needs target_time, the RFC 3339 point in time to restore (such as 2026-11-01T00:00:00Z)`;
    return [diagnosticAt(service.origin, ['fork'], message, 'fork-target-time')];
  }
  if (targetTime === undefined) return [];
  if (strategy !== undefined && strategy !== 'PITR') {
    const message = `${where}.target_time: only strategy PITR takes a target_time (strategy is ${strategy}); remove it or use PITR`;
    return [diagnosticAt(service.origin, ['fork', 'target_time'], message, 'fork-target-time')];
  }
  if (typeof targetTime === 'string' && !isRfc3339(targetTime)) {
    const message = `${where}.target_time: ${JSON.stringify(targetTime)} is not an RFC 3339 time such as 2026-11-01T00:00:00Z (date, T, time and a Z or +hh:mm offset)`;
    return [diagnosticAt(service.origin, ['fork', 'target_time'], message, 'fork-target-time')];
  }
  return [];
}

const hasTimeSeries = (e: Entry): boolean | undefined =>
  Array.isArray(e.value.addons) ? e.value.addons.includes('time-series') : undefined;

function checkInherited(service: Entry, byKey: ReadonlyMap<string, Entry>): Diagnostic[] {
  const parent = byKey.get(str(record(service.value, 'fork'), 'from') ?? '');
  if (!parent || parent === service) return [];
  const errors: Diagnostic[] = [];
  const mine = str(service.value, 'region_code');
  const theirs = str(parent.value, 'region_code');
  if (mine !== undefined && theirs !== undefined && mine !== theirs) {
    const message = `services.${service.key}.region_code: a fork lives in its parent's region; services.${parent.key} is in ${theirs}, not ${mine}`;
    errors.push(diagnosticAt(service.origin, ['region_code'], message, 'fork-inherits'));
  }
  const [myType, theirType] = [hasTimeSeries(service), hasTimeSeries(parent)];
  if (myType !== undefined && theirType !== undefined && myType !== theirType) {
    const message = `services.${service.key}.addons: a fork has its parent's service type; services.${parent.key} ${theirType ? 'has' : 'does not have'} the time-series addon`;
    errors.push(diagnosticAt(service.origin, ['addons'], message, 'fork-inherits'));
  }
  return errors;
}

export const forkRule: Rule = {
  code: 'fork-target-time',
  check(config) {
    const byKey = entriesByKey(config.services);
    return config.services.flatMap((s) => [...checkTargetTime(s), ...checkInherited(s, byKey)]);
  },
};
