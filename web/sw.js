// The service worker: keeps the page's shell (the page, its modules, styles, catalogues,
// icons, the tutorial's script and the tile table the art is drawn from) so that the page
// opens without a network. Served at `/sw.js` by the server, which writes in the two lines
// below: the shell's version and its paths.
//
// A new server with other files is a new worker with a cache of its own, filled whole (every
// file of the same version) before it takes over; the old caches go when it does. API answers
// and sockets never pass through here: they are the server's, now.

const VERSION = 'dev';
const PRECACHE = [];

const CACHE = `sagani-${VERSION}`;
const KEPT = new Set(PRECACHE);
// Paths that are never the page's (as the server's `web.rs` says), and the root files.
const NOT_PAGES = ['/api', '/assets', '/healthz', '/readyz', '/metrics'];
const ROOT_FILES = ['/sw.js', '/manifest.webmanifest'];

const isPage = (path) => !ROOT_FILES.includes(path)
  && !NOT_PAGES.some((p) => path === p || path.startsWith(`${p}/`));

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(PRECACHE.map(async (path) => {
      // Each file as the server has it now: a copy in the browser's HTTP cache is asked about
      // (ETag), not fetched again.
      const response = await fetch(new Request(path, { cache: 'no-cache', credentials: 'same-origin' }));
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      // Behind a balancer, another server may run another version: no mixed shell is kept.
      const shell = response.headers.get('sagani-shell');
      if (shell !== VERSION) throw new Error(`${path} is of shell ${shell}, not ${VERSION}`);
      await cache.put(path, response);
    })).catch(async (e) => {
      // Nothing of a shell not kept whole stays behind.
      await caches.delete(CACHE);
      throw e;
    });
    // A failed install leaves the worker there was; this one replaces it at once.
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE && name.startsWith('sagani-')) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/// The kept copy of `path`, or the network's answer if there is none.
async function kept(path, request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(path)) || fetch(request);
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Every page address is the same page: it reads the address itself.
  if (request.mode === 'navigate') {
    if (isPage(url.pathname)) event.respondWith(kept('/', request));
    return;
  }
  if (url.search === '' && KEPT.has(url.pathname)) event.respondWith(kept(url.pathname, request));
  // Anything else (the API above all) goes to the network untouched.
});
