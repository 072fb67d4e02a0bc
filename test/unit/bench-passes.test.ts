import { mirroredPasses } from '../../bench/lib/load';

/** The ceiling's worker counts are visited up, then down: each count's rounds sit symmetrically in time. */
test('passes alternate up and down the curve', () => {
  expect(mirroredPasses([1, 2, 4], 1)).toEqual([1, 2, 4]);
  expect(mirroredPasses([1, 2, 4], 2)).toEqual([1, 2, 4, 4, 2, 1]);
  expect(mirroredPasses([1, 2, 4], 3)).toEqual([1, 2, 4, 4, 2, 1, 1, 2, 4]);
  // Mean position in time is the same for every point after an even number of passes.
  const order = mirroredPasses(['a', 'b', 'c'], 2);
  const meanIndex = (p: string) => order.reduce((sum, q, i) => sum + (q === p ? i : 0), 0) / 2;
  expect(new Set(['a', 'b', 'c'].map(meanIndex)).size).toBe(1);
});
