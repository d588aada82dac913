import { classifyReadiness, describeLapse, isReadinessCandidate, leaseState } from '../../../../src/domain/tracker/readiness.js';

const now = '2026-03-01T12:00:00.000Z';
const past = '2026-03-01T11:48:00.000Z';
const later = '2026-03-01T13:00:00.000Z';
const free = { blocked: false, busy: false };

describe('readiness rule', () => {
  it('tells a live lease from an expired one, at the exact expiry too', () => {
    expect(leaseState({}, now)).toEqual({ state: 'none' });
    expect(leaseState({ claimHolder: 'bob', claimExpiresAt: later }, now)).toEqual({ state: 'live', holder: 'bob', expiresAt: later });
    expect(leaseState({ claimHolder: 'bob', claimExpiresAt: now }, now)).toEqual({ state: 'expired', holder: 'bob', expiresAt: now });
  });

  it('looks at open items and at lapsed claims of unfinished items only', () => {
    expect(isReadinessCandidate({ status: 'open' }, 'open', now)).toBe(true);
    expect(isReadinessCandidate({ status: 'in_progress', claimHolder: 'bob', claimExpiresAt: past }, 'open', now)).toBe(true);
    expect(isReadinessCandidate({ status: 'in_progress', claimHolder: 'bob', claimExpiresAt: later }, 'open', now)).toBe(false);
    expect(isReadinessCandidate({ status: 'in_progress' }, 'open', now)).toBe(false);
    expect(isReadinessCandidate({ status: 'closed', claimHolder: 'bob', claimExpiresAt: past }, 'open', now)).toBe(false);
  });

  it('holds back live claims and assignments of others, but not an assignment that lapsed with its claim', () => {
    expect(classifyReadiness({ status: 'open', claimHolder: 'bob', claimExpiresAt: later }, free, 'alice', now)).toBe('claimed');
    expect(classifyReadiness({ status: 'open', claimHolder: 'bob', claimExpiresAt: later }, free, 'bob', now)).toBe('ready');
    expect(classifyReadiness({ status: 'open', assignee: 'bob' }, free, 'alice', now)).toBe('claimed');
    expect(classifyReadiness({ status: 'open', assignee: 'bob' }, free, undefined, now)).toBe('ready');
    expect(classifyReadiness({ status: 'in_progress', assignee: 'bob', claimHolder: 'bob', claimExpiresAt: past }, free, 'alice', now)).toBe('ready');
    expect(classifyReadiness({ status: 'in_progress', assignee: 'cy', claimHolder: 'bob', claimExpiresAt: past }, free, 'alice', now)).toBe('claimed');
    expect(classifyReadiness({ status: 'open' }, { blocked: true, busy: true }, 'alice', now)).toBe('blocked');
    expect(classifyReadiness({ status: 'open' }, { blocked: false, busy: true }, 'alice', now)).toBe('container');
  });

  it('says how long ago a claim expired', () => {
    expect(describeLapse('bob', past, Date.parse(now))).toBe('claim by bob expired 12 min ago');
    expect(describeLapse('bob', '2026-02-27T12:00:00.000Z', Date.parse(now))).toBe('claim by bob expired 2 days ago');
  });
});
