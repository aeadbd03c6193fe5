import { describe, expect, it } from 'vitest';
import { CallModel } from '../model/call-model.ts';
import { ConnectionHealth } from './connection-health.ts';

function health() {
  const model = new CallModel();
  let suspected = 0;
  return { model, health: new ConnectionHealth(model, () => suspected++), suspected: () => suspected };
}

describe('connection health', () => {
  it('says reconnecting while any connection restores, and not once all are back', () => {
    const { model, health: h } = health();
    h.setBroken('camera', true);
    h.setBroken('subscriber', true);
    h.setBroken('camera', false);
    expect(model.getState().mediaReconnecting).toBe(true);
    h.setBroken('subscriber', false);
    expect(model.getState().mediaReconnecting).toBe(false);
  });

  it('asks the socket watch to look when a media connection breaks, once per break, never for the socket itself', () => {
    const { health: h, suspected } = health();
    h.setBroken('signalling', true);
    expect(suspected()).toBe(0);
    h.setBroken('screen', true);
    h.setBroken('screen', true);
    expect(suspected()).toBe(1);
    h.setBroken('screen', false);
    h.setBroken('screen', true);
    expect(suspected()).toBe(2);
  });

  it('clears every connection at a teardown', () => {
    const { model, health: h } = health();
    h.setBroken('camera', true);
    h.setBroken('signalling', true);
    h.clear();
    expect(model.getState().mediaReconnecting).toBe(false);
    h.setBroken('camera', false);
    expect(model.getState().mediaReconnecting).toBe(false);
  });

  it('tells a connection that worked from a network that lets no media through', () => {
    const worked = health();
    worked.health.iceGaveUp(true);
    expect(worked.model.getState().errors.map((e) => e.key)).toEqual(['networkDisconnected']);

    const never = health();
    never.health.iceGaveUp(false);
    expect(never.model.getState().errors.map((e) => e.key)).toEqual(['connectionFailed']);

    // Another of its connections got media through: this one is rebuilt without a word.
    const other = health();
    other.health.mediaEverConnected = true;
    other.health.iceGaveUp(false);
    expect(other.model.getState().errors).toEqual([]);
  });
});
