/** A lazily imported module of views: imported once however often asked for, and again after a failure. */
import { describe, expect, it } from 'vitest';
import { lazyModule } from '../../../src-renderer/state/lazy-module';

describe('lazyModule', () => {
  it('imports the module once, however many ask at once or later', async () => {
    let imports = 0;
    const views = lazyModule(async () => {
      imports += 1;
      return { name: 'views' };
    });
    const [first, second] = await Promise.all([views.load(), views.load()]);
    expect(await views.load()).toBe(first);
    expect(second).toBe(first);
    expect(imports).toBe(1);
  });

  it('tries again after a failed import, and keeps the module once one succeeds', async () => {
    let imports = 0;
    const views = lazyModule(async () => {
      imports += 1;
      if (imports === 1) throw new Error('chunk not served');
      return { name: 'views' };
    });
    await expect(views.load()).rejects.toThrow('chunk not served');
    const loaded = await views.load();
    expect(loaded).toEqual({ name: 'views' });
    expect(await views.load()).toBe(loaded);
    expect(imports).toBe(2);
  });
});
