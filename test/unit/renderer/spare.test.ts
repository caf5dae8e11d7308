import { describe, expect, it } from 'vitest';
import { Spare } from '../../../src-renderer/review/diff-editor/spare';

function counted() {
  let made = 0;
  const discarded: number[] = [];
  const spare = new Spare(
    () => ++made,
    (item: number) => discarded.push(item),
  );
  return { spare, made: () => made, discarded };
}

describe('Spare', () => {
  it('hands out what was prepared ahead, without making another', () => {
    const { spare, made } = counted();
    spare.prepare();
    spare.prepare();
    expect(made()).toBe(1);
    expect(spare.take()).toBe(1);
    expect(made()).toBe(1);
  });

  it('makes one when none was prepared or the spare is in use', () => {
    const { spare, made } = counted();
    expect(spare.take()).toBe(1);
    expect(spare.take()).toBe(2);
    expect(made()).toBe(2);
  });

  it('keeps what is given back for the next taker, and discards a second one', () => {
    const { spare, made, discarded } = counted();
    const first = spare.take();
    const second = spare.take();
    spare.give(first);
    spare.give(second);
    expect(discarded).toEqual([second]);
    expect(spare.take()).toBe(first);
    expect(made()).toBe(2);
  });
});
