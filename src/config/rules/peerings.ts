// A peering is identified by its peer_vpc_id within its VPC, so one VPC peers a given VPC once.
// A peer account that is not 12 digits is a warning: the cloud accepts the request, and the
// peering fails later.
import type { Diagnostic } from '../../model/diagnostics.js';
import { diagnosticAt, type Entry } from '../merge.js';
import { peeringsOf, str, type Rule } from './rule.js';

export const peeringsRule: Rule = {
  code: 'duplicate-peering',
  check(config) {
    const problems: Diagnostic[] = [];
    for (const vpc of config.vpcs) {
      const seen = new Map<string, Entry>();
      for (const peering of peeringsOf(vpc)) {
        const where = `vpcs.${vpc.key}.peerings[${peering.key}]`;
        const account = str(peering.value, 'peer_account_id');
        if (account !== undefined && !/^\d{12}$/.test(account)) {
          const message = `${where}.peer_account_id: ${JSON.stringify(account)} is not a 12-digit account ID; the peering will fail`;
          problems.push(diagnosticAt(peering.origin, ['peer_account_id'], message, 'peer-account-id', { severity: 'warning' }));
        }
        const peerVpcId = str(peering.value, 'peer_vpc_id');
        if (peerVpcId === undefined) continue;
        const first = seen.get(peerVpcId);
        if (first) {
          const message = `${where}.peer_vpc_id: ${peerVpcId} is already peered by peerings[${first.key}] of this VPC; a VPC peers each peer VPC once`;
          problems.push(diagnosticAt(peering.origin, ['peer_vpc_id'], message, 'duplicate-peering'));
        } else seen.set(peerVpcId, peering);
      }
    }
    return problems;
  },
};
