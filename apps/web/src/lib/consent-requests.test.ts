import { describe, expect, it } from 'vitest';
import { ConsentRequests } from './consent-requests.ts';
import { EarlyRequest } from './early-request.ts';

/** The server as the test sees it: requests in the order they reach it, each answered by hand. */
function server() {
  const arrived: string[] = [];
  const answers: (() => void)[] = [];
  const request = (what: string) => {
    arrived.push(what);
    return new Promise<string>((resolve) => answers.push(() => resolve(what)));
  };
  return { arrived, answerNext: () => answers.shift()!(), give: (id: string) => request(`give ${id}`), withdraw: (id: string) => request(`withdraw ${id}`) };
}
const turn = () => new Promise((r) => setTimeout(r, 0));

describe('ConsentRequests', () => {
  it('asks for the token with the consent as the box is ticked, and the join takes that answer', async () => {
    const s = server();
    let clock = 0;
    const tokens = new EarlyRequest<string>(30_000, () => clock);
    const consent = new ConsentRequests(tokens, s.give, s.withdraw);
    consent.ticked('m1');
    await turn();
    expect(s.arrived).toEqual(['give m1']);
    consent.joining('m1'); // within 30 s: no second request
    await turn();
    expect(s.arrived).toEqual(['give m1']);
    s.answerNext();
    await expect(tokens.take('m1', () => Promise.resolve('asked again'))).resolves.toBe('give m1');
    // Joining later than that (the answer no longer fresh): asked anew, with the consent.
    consent.ticked('m1');
    clock = 31_000;
    consent.joining('m1');
    await turn();
    expect(s.arrived).toEqual(['give m1', 'give m1']);
    s.answerNext();
    await turn();
    expect(s.arrived).toEqual(['give m1', 'give m1', 'give m1']);
  });

  it('sends tick, untick, tick to the server one after another, and keeps no token asked with a withdrawn consent', async () => {
    const s = server();
    const tokens = new EarlyRequest<string>(30_000, () => 0);
    const consent = new ConsentRequests(tokens, s.give, s.withdraw);
    consent.ticked('m1');
    consent.unticked('m1');
    expect(tokens.fresh('m1')).toBe(false);
    consent.ticked('m1');
    await turn();
    // Nothing overtakes: the withdrawal waits for the first answer, the second consent for the withdrawal.
    expect(s.arrived).toEqual(['give m1']);
    s.answerNext();
    await turn();
    expect(s.arrived).toEqual(['give m1', 'withdraw m1']);
    s.answerNext();
    await turn();
    expect(s.arrived).toEqual(['give m1', 'withdraw m1', 'give m1']);
    s.answerNext();
    await expect(tokens.take('m1', () => Promise.resolve('asked again'))).resolves.toBe('give m1');
  });

  it('goes on after a refused request', async () => {
    const tokens = new EarlyRequest<string>(30_000, () => 0);
    const arrived: string[] = [];
    const consent = new ConsentRequests(
      tokens,
      async (id) => {
        arrived.push(`give ${id}`);
        throw new Error('403');
      },
      async (id) => void arrived.push(`withdraw ${id}`),
    );
    consent.ticked('m1');
    consent.unticked('m1');
    await turn();
    expect(arrived).toEqual(['give m1', 'withdraw m1']);
    // A refused (or lost) answer is not what the join takes: it asks again.
    consent.ticked('m1');
    await turn();
    expect(tokens.fresh('m1')).toBe(false);
    consent.joining('m1');
    await turn();
    expect(arrived).toEqual(['give m1', 'withdraw m1', 'give m1', 'give m1']);
  });
});
