import jwt from 'jsonwebtoken';
import { gaugeValue, minioMetricsToken, parseMinioMemory } from '../../bench/lib/minioMemory';

const EXPOSITION = [
  '# HELP go_memstats_heap_inuse_bytes Number of heap bytes that are in use.',
  '# TYPE go_memstats_heap_inuse_bytes gauge',
  'go_memstats_heap_inuse_bytes 2.08109568e+08',
  'go_memstats_heap_alloc_bytes 201303928',
  'go_memstats_heap_idle_bytes 1.1042816e+07',
  'go_memstats_heap_released_bytes 4685824',
  'go_memstats_heap_objects 1234',
  'go_goroutines 470',
  'minio_node_go_routine_total{server="127.0.0.1:9000"} 470',
].join('\n');

describe('MinIO memory sampling (bench soak)', () => {
  it('reads unlabelled gauges by exact name, in either number notation', () => {
    expect(gaugeValue(EXPOSITION, 'go_memstats_heap_inuse_bytes')).toBe(208_109_568);
    expect(gaugeValue(EXPOSITION, 'go_memstats_heap_alloc_bytes')).toBe(201_303_928);
    // A longer name sharing the prefix is not taken for it, and a missing gauge is NaN.
    expect(gaugeValue(EXPOSITION, 'go_memstats_heap')).toBeNaN();
    expect(gaugeValue(EXPOSITION, 'go_memstats_stack_inuse_bytes')).toBeNaN();
  });

  it('parses a full sample, and refuses one missing a gauge', () => {
    expect(parseMinioMemory(EXPOSITION)).toEqual({
      heapInuse: 208_109_568,
      heapAlloc: 201_303_928,
      heapIdle: 11_042_816,
      heapReleased: 4_685_824,
      goroutines: 470,
    });
    expect(parseMinioMemory(EXPOSITION.replace(/^go_goroutines.*$/m, ''))).toBeNull();
    expect(parseMinioMemory('<Error><Code>AccessDenied</Code></Error>')).toBeNull();
  });

  it('signs the metrics token MinIO checks: HS512 under the secret key, access key as subject', () => {
    const token = minioMetricsToken({ accessKey: 'loom', secretKey: 'a-secret-key-of-minio' }, 120);
    const claims = jwt.verify(token, 'a-secret-key-of-minio', { algorithms: ['HS512'] }) as jwt.JwtPayload;
    expect(claims.sub).toBe('loom');
    expect(claims.iss).toBe('prometheus');
    expect(claims.exp! - claims.iat!).toBe(120);
    expect(() => jwt.verify(token, 'another-secret', { algorithms: ['HS512'] })).toThrow();
  });
});
