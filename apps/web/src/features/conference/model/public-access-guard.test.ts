import { describe, expect, it } from 'vitest';
import { guardPath, nameFormPath } from './public-access-guard.ts';

describe('the public-access guard (spec §2)', () => {
  it("sends a nameless webcast visitor to the room link's name form, with the room id it needs", () => {
    expect(guardPath('m-1', 'AbC_12')).toBe('/meetings/m-1/conference/publicaccess/AbC_12');
    expect(nameFormPath('AbC_12')).toBe('/publicaccess/AbC_12');
  });
  it('without the room id, the guard route finds it; only with none at all the start page', () => {
    expect(guardPath('m-1', null)).toBe('/meetings/m-1/conference/publicaccess');
    expect(nameFormPath(null)).toBe('/');
    expect(nameFormPath('a/b')).toBe('/publicaccess/a%2Fb');
  });
});
