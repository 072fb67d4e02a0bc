import { useEffect, useState } from 'preact/hooks';

/**
 * Hash routes (`#/runs/<workflow>/<run>?status=failed`): the page is one static file, links survive a reload and can
 * be shared, and nothing of the route reaches the server.
 */
export interface Route {
  path: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const at = text.indexOf('?');
  const pathText = at >= 0 ? text.slice(0, at) : text;
  return {
    path: pathText.split('/').filter(Boolean).map((part) => decodeURIComponent(part)),
    query: new URLSearchParams(at >= 0 ? text.slice(at + 1) : ''),
  };
}

export function useRoute(): Route {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return parseRoute(hash);
}

/** `#/a/b?k=v` from path parts (encoded) and a query (empty values left out). */
export function href(parts: string[], query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return `#/${parts.map(encodeURIComponent).join('/')}${search ? `?${search}` : ''}`;
}

export function navigate(target: string, replace = false): void {
  if (replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
  dispatchEvent(new HashChangeEvent('hashchange'));
}
