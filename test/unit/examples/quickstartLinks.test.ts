import { consoleRunUrl, pictureUrlWithToken } from '../../../examples/quickstart';

/** The links `npm run example` prints for its run (examples/quickstart.ts); the whole walk: test/integration/quickstart.test.ts. */

describe('the console link', () => {
  test('is the run page of the console at /console of the API base URL', () => {
    expect(consoleRunUrl('http://127.0.0.1:3000', 'wf-1', 'run-1')).toBe('http://127.0.0.1:3000/console/#/runs/wf-1/run-1');
  });

  test('keeps a base path and drops trailing slashes', () => {
    expect(consoleRunUrl('https://loom.example.com/api-gw//', 'a', 'b')).toBe('https://loom.example.com/api-gw/console/#/runs/a/b');
  });
});

describe('the picture link', () => {
  test('carries the access token in its fragment, as the README prints it', () => {
    expect(pictureUrlWithToken('http://h/ui/workflows/w/runs/r/picture', 'aaa.bbb.ccc')).toBe('http://h/ui/workflows/w/runs/r/picture#token=aaa.bbb.ccc');
  });

  test('without a token it is the link alone', () => {
    expect(pictureUrlWithToken('http://h/p', null)).toBe('http://h/p');
  });
});
