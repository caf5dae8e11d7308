import { describe, expect, it } from 'vitest';
import { homePath } from '../../src-renderer/state/home-path';

describe('homePath', () => {
  it('writes the home folder as ~, for the folder itself and anything inside it', () => {
    expect(homePath('/home/ada/shop/src/cart.ts', '/home/ada')).toBe('~/shop/src/cart.ts');
    expect(homePath('/home/ada', '/home/ada')).toBe('~');
    expect(homePath('/home/ada/shop', '/home/ada/')).toBe('~/shop');
    expect(homePath('C:\\Users\\ada\\shop', 'C:\\Users\\ada')).toBe('~\\shop');
  });

  it('leaves other paths alone, also those that merely begin with the same letters', () => {
    expect(homePath('/home/adam/shop', '/home/ada')).toBe('/home/adam/shop');
    expect(homePath('/srv/shop', '/home/ada')).toBe('/srv/shop');
    expect(homePath('/home/ada/shop', undefined)).toBe('/home/ada/shop');
    expect(homePath('/anything', '/')).toBe('/anything');
  });
});
