import { describe, expect, it } from 'vitest';
import { checkOutcome, selectedLocalCandidateType, type StatsEntry } from './check-outcome.ts';

const chromium = (type: string): StatsEntry[] => [
  { id: 'T1', type: 'transport', selectedCandidatePairId: 'CP2' },
  { id: 'CP1', type: 'candidate-pair', localCandidateId: 'L1', nominated: false, state: 'failed' },
  { id: 'CP2', type: 'candidate-pair', localCandidateId: 'L2', nominated: true, state: 'succeeded' },
  { id: 'L1', type: 'local-candidate', candidateType: 'host' },
  { id: 'L2', type: 'local-candidate', candidateType: type },
];

describe('the lobby\'s connection check outcome', () => {
  it('reads the local candidate of the pair that carries the connection, in Chromium and Firefox', () => {
    expect(selectedLocalCandidateType(chromium('relay'))).toBe('relay');
    expect(selectedLocalCandidateType(chromium('host'))).toBe('host');
    const firefox: StatsEntry[] = [
      { id: 'a', type: 'candidate-pair', localCandidateId: 'l1', selected: false, nominated: true, state: 'succeeded' },
      { id: 'b', type: 'candidate-pair', localCandidateId: 'l2', selected: true, nominated: true, state: 'succeeded' },
      { id: 'l1', type: 'local-candidate', candidateType: 'host' },
      { id: 'l2', type: 'local-candidate', candidateType: 'srflx' },
    ];
    expect(selectedLocalCandidateType(firefox)).toBe('srflx');
    expect(selectedLocalCandidateType([{ id: 'T', type: 'transport' }])).toBeNull();
  });

  it('direct unless only a relay carries it; failed when it never connected', () => {
    expect(checkOutcome(true, 'host')).toBe('direct');
    expect(checkOutcome(true, 'srflx')).toBe('direct');
    expect(checkOutcome(true, 'prflx')).toBe('direct');
    expect(checkOutcome(true, null)).toBe('direct');
    expect(checkOutcome(true, 'relay')).toBe('turn');
    expect(checkOutcome(false, 'relay')).toBe('failed');
    expect(checkOutcome(false, null)).toBe('failed');
  });
});
