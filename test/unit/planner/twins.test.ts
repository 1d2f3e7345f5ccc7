// Creates that would make a twin of another workspace's resource, or a VPC over the block of a
// live one (SPEC section 13): plan errors, with the way out in the message.
import { describe, expect, it } from 'vitest';
import { desiredService, desiredState, desiredVpc, errors, liveService, liveState, liveVpc, lockfile, ops, plan } from './builders.js';

const claims = (entries: Array<[string, string, string]>) => new Map(entries.map(([id, workspace, address]) => [id, { workspace, address }]));

describe('a create whose name another workspace binds', () => {
  it('is an error naming the workspace and the --workspace flag, for services and VPCs', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { cidr: '10.1.0.0/16' })], services: [desiredService('db', { name: 'app-prod' })] }),
      liveState({ vpcs: [liveVpc('main', { id: '1000000001', cidr: '10.1.0.0/16' })], services: [liveService('app-prod', { id: 'prodprod01' })] }),
      lockfile(),
      { claimedElsewhere: claims([['1000000001', 'default', 'vpc.main'], ['prodprod01', 'default', 'service.db']]) },
    );
    expect(errors(p)).toEqual([
      'vpc.main would be created with the name "main", which is the name of the live VPC 1000000001 that workspace "default" binds as vpc.main: that would make a twin of it. ' +
        'To work on workspace "default", run with --workspace default (a DBFORM_WORKSPACE left over in the shell is the usual cause); otherwise give it a name of its own, such as one with ${workspace} in it',
      'service.db would be created with the name "app-prod", which is the name of the live service prodprod01 that workspace "default" binds as service.db: that would make a twin of it. ' +
        'To work on workspace "default", run with --workspace default (a DBFORM_WORKSPACE left over in the shell is the usual cause); otherwise give it a name of its own, such as one with ${workspace} in it',
    ]);
    expect(p.bindings).toEqual([]);
  });

  it('a name of its own, or a live resource nobody binds (adopted), is no twin', () => {
    const own = plan(
      desiredState({ services: [desiredService('db', { name: 'app-pr-1' })] }),
      liveState({ services: [liveService('app-prod', { id: 'prodprod01' })] }),
      lockfile(),
      { claimedElsewhere: claims([['prodprod01', 'default', 'service.db']]) },
    );
    expect(errors(own)).toEqual([]);
    expect(ops(own)).toEqual(['service.db createService']);
    const unbound = plan(desiredState({ services: [desiredService('db', { name: 'app-prod' })] }), liveState({ services: [liveService('app-prod', { id: 'prodprod01' })] }));
    expect(errors(unbound)).toEqual([]);
    expect(unbound.bindings.map((b) => `${b.kind} ${b.address} ${b.id}`)).toEqual(['adopt service.db prodprod01']);
  });
});

describe('a VPC created over the block of a live one', () => {
  it('is an error naming the live VPC and suggesting dbform import (a lost binding, the live VPC renamed by hand)', () => {
    const p = plan(
      desiredState({ vpcs: [desiredVpc('main', { cidr: '10.30.0.0/16' })] }),
      liveState({ vpcs: [liveVpc('main-renamed', { id: '1000000001', cidr: '10.30.0.0/16' })] }),
      lockfile(),
    );
    expect(errors(p)).toEqual([
      'vpc.main would be created with cidr 10.30.0.0/16, which overlaps the live VPC "main-renamed" (1000000001, 10.30.0.0/16). ' +
        'If that is the VPC this config means, bind it with `dbform import vpc.main 1000000001` (its binding was lost, or it was renamed); otherwise choose a block that does not overlap it',
    ]);
  });

  it('partial overlaps count; another workspace binding it is named; disjoint blocks and VPCs this plan deletes do not count', () => {
    const partial = plan(
      desiredState({ vpcs: [desiredVpc('main', { cidr: '10.30.128.0/17' })] }),
      liveState({ vpcs: [liveVpc('theirs', { id: '1000000001', cidr: '10.30.0.0/16' })] }),
      lockfile(),
      { claimedElsewhere: claims([['1000000001', 'pr-4', 'vpc.net']]) },
    );
    expect(errors(partial)).toEqual([expect.stringContaining('overlaps the live VPC "theirs" (1000000001, 10.30.0.0/16), which workspace "pr-4" binds as vpc.net. ')]);
    const disjoint = plan(desiredState({ vpcs: [desiredVpc('main', { cidr: '10.31.0.0/16' })] }), liveState({ vpcs: [liveVpc('other', { id: '1000000001', cidr: '10.30.0.0/16' })] }));
    expect(errors(disjoint)).toEqual([]);
    // The old VPC leaves the config (deleted by this plan) while a new one takes its block.
    const swap = plan(
      desiredState({ vpcs: [desiredVpc('next', { cidr: '10.30.0.0/16' })] }),
      liveState({ vpcs: [liveVpc('old', { id: '1000000001', cidr: '10.30.0.0/16' })] }),
      lockfile({ 'vpc.old': '1000000001' }),
    );
    expect(errors(swap)).toEqual([]);
    expect(ops(swap)).toEqual(expect.arrayContaining(['vpc.next createVPC', 'vpc.old deleteVPC']));
  });
});
