// How quick the table is, as the page sees it: plays whole games against greedy bots by clicks
// (a real server, headless Chromium, 1400×900) and prints the page's own timings
// (`window.saganiTimings`: the move round trip from the click on ✓ to the painted frame showing
// the move, split into the wait for the server's answer, drawing it and the frame; the preview;
// the redraws) as median and max over every game. A game of two has about 24 moves of the
// player's own; `--games 2` gives about 50.
//
//   node prof.mjs [--players N] [--games N] [--disk] [--web DIR] [--cpu] [--trace] [--one]
//
//   --players N  seats (1 = solo; default 2, the others greedy bots)
//   --games N    games to play (default 1)
//   --web DIR    serve the page's files from DIR instead (another version of web/, to compare:
//                `git archive REV web | tar -x -C /tmp/old` and `--web /tmp/old/web`)
//   --disk       serve the page's files from web/ on disk (a release server embeds the files it
//                was built with); the interception adds a few milliseconds to every request
//   --cpu        the page's functions that took the most time (Chromium's sampling profiler)
//   --trace      the browser's work by kind over the game (style, layout, paint …)
//   --one        the main thread's work, step by step, for the 10th move of the first game
//                (ONE_AT=k: the k-th), with the script line that forced each style or layout
//                update and how many elements and objects each touched (ONE_DUMP=file: the
//                trace's events as JSON, to look further)
//
// The server is $SAGANI_BIN (a release build measures what players get), else target/debug.
import { readFileSync } from 'node:fs';
import { startServer, launchBrowser, settled } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const players = opt('--players', 2);
const games = opt('--games', 1);
const cpu = args.includes('--cpu');
const trace = args.includes('--trace');
const one = args.includes('--one');
const TYPES = { js: 'text/javascript', css: 'text/css', json: 'application/json', svg: 'image/svg+xml' };
const table = '[data-testid=table]';
const versionAbove = (v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v;

// DECK_SEED=n deals the same deck every time (to compare two versions of the page move by move).
const server = await startServer({ botThinkMs: 50, deckSeed: process.env.DECK_SEED });
const context = await launchBrowser({ viewport: { width: 1400, height: 900 } });
const page = await context.newPage();
page.on('pageerror', (e) => console.log('pageerror:', e.message));
const webDir = args.includes('--web') ? new URL(`file://${args[args.indexOf('--web') + 1].replace(/\/?$/, '/')}`) : args.includes('--disk') ? new URL('../', import.meta.url) : null;
if (webDir) {
  await page.route('**/assets/**', async (route) => {
    const path = new URL(route.request().url()).pathname.replace('/assets/', '');
    try {
      await route.fulfill({ body: readFileSync(new URL(path, webDir)), contentType: TYPES[path.split('.').pop()] });
    } catch {
      await route.continue();
    }
  });
}
const cdp = await context.newCDPSession(page);

/// Collects trace events between `start` and `stop`.
function tracer(categories) {
  const events = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
  return {
    events,
    start: () => cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' }),
    stop: async () => {
      const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await done;
    },
  };
}

/// The main thread's work after the click, with what forced each style or layout update.
function steps(events) {
  const click = events.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'click');
  if (!click) return;
  const shown = /^(EventDispatch|FunctionCall|TimerFire|UpdateLayoutTree|Layout|PrePaint|Paint|Layerize)$/;
  for (const e of events.filter((x) => x.ph === 'X' && x.dur > 300 && x.tid === click.tid && shown.test(x.name)).sort((a, b) => a.ts - b.ts)) {
    if (e.ts < click.ts) continue;
    const stack = e.args?.beginData?.stackTrace || e.args?.data?.stackTrace;
    const why = stack ? stack.slice(0, 3).map((f) => `${f.functionName}@${f.url.split('/').pop()}:${f.lineNumber}`).join(' < ') : '';
    // How much the update touched: elements restyled, objects laid out.
    const end = e.args?.endData || {};
    const size = e.name === 'UpdateLayoutTree' ? `[${e.args?.elementCount ?? end.elementCount ?? '?'} elements]`
      : e.name === 'Layout' ? `[${e.args?.beginData?.dirtyObjects ?? '?'}/${e.args?.beginData?.totalObjects ?? '?'} objects]` : '';
    console.log(((e.ts - click.ts) / 1000).toFixed(1).padStart(7), 'ms', (e.dur / 1000).toFixed(1).padStart(6), 'ms', e.name, size, why);
  }
}

const whole = tracer('devtools.timeline,disabled-by-default-devtools.timeline');
if (cpu) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
}
if (trace) await whole.start();
const timings = { moves: [], moveParts: [], previews: [], renders: [], firstRender: [] };
for (let game = 0; game < games; game++) {
  await page.goto(`${server.url}/`);
  await page.waitForSelector('[data-testid=create], [data-testid=solo-start]');
  if (players === 1) await page.click('[data-testid=solo-start]');
  else {
    await page.selectOption('[data-testid=players]', String(players));
    for (let i = 1; i < players; i++) await page.selectOption(`[data-testid=seat-${i}]`, 'bot:mcts:4');
    await page.click('[data-testid=create]');
  }
  await page.waitForSelector(table);
  for (let k = 0; k < 500; k++) {
    await page.waitForSelector(`${table}[data-my-turn=true], ${table}[data-status=over]`, { timeout: 60000 });
    if (await page.$(`${table}[data-status=over]`)) break;
    await settled(page);
    const expects = await page.getAttribute(table, 'data-expects');
    const v = Number(await page.getAttribute(table, 'data-version'));
    if (expects === 'turn') {
      const offer = page.locator('[data-testid=offer-tile]:not([disabled])');
      if (!(await offer.count())) {
        await page.click('[data-testid=intermezzo-choice]');
        await page.waitForFunction(versionAbove, v);
        continue;
      }
      await offer.first().click();
    }
    if (expects === 'intermezzo-pick') await page.locator('[data-testid=intermezzo-tile]:not([disabled])').first().click();
    const cells = page.locator('rect.cell.legal');
    await cells.nth(k % (await cells.count())).click();
    await page.waitForSelector('[data-testid=preview-score]');
    await settled(page);
    const watched = one && game === 0 && k === Number(process.env.ONE_AT || 10) ? tracer('devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.stack') : null;
    if (watched) await watched.start();
    await page.click('[data-testid=confirm]');
    await page.waitForFunction(versionAbove, v);
    if (watched) {
      await settled(page);
      await watched.stop();
      steps(watched.events);
      if (process.env.ONE_DUMP) (await import('node:fs')).writeFileSync(process.env.ONE_DUMP, JSON.stringify(watched.events));
    }
  }
  await settled(page);
  const tm = await page.evaluate(() => window.saganiTimings);
  for (const k of ['moves', 'moveParts', 'previews', 'renders']) timings[k].push(...(tm[k] || []));
  timings.firstRender.push(tm.firstRender);
}

const stat = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? `n=${s.length} median=${s[s.length >> 1].toFixed(1)} max=${s[s.length - 1].toFixed(1)} ms` : 'none';
};
console.log('first render', stat(timings.firstRender));
console.log('moves       ', stat(timings.moves));
// Where a move's time went: the server's answer, drawing it, the frame until it is painted.
for (const part of ['server', 'draw', 'frame']) console.log(`  ${part.padEnd(10)}`, stat(timings.moveParts.map((p) => p[part])));
console.log('previews    ', stat(timings.previews));
console.log('redraws     ', stat(timings.renders));
if (trace) {
  await whole.stop();
  const sum = new Map();
  for (const e of whole.events) {
    if (e.ph === 'X' && e.dur) {
      const [ms, n] = sum.get(e.name) || [0, 0];
      sum.set(e.name, [ms + e.dur / 1000, n + 1]);
    }
  }
  for (const [name, [ms, n]] of [...sum].sort((a, b) => b[1][0] - a[1][0]).slice(0, 20)) console.log(ms.toFixed(0).padStart(7), 'ms', String(n).padStart(6), name);
}
if (cpu) {
  const { profile } = await cdp.send('Profiler.stop');
  const spent = new Map();
  profile.samples.forEach((id, i) => spent.set(id, (spent.get(id) || 0) + (profile.timeDeltas[i] || 0)));
  const self = new Map();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) || 0) + (spent.get(n.id) || 0) / 1000);
  }
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(ms.toFixed(0).padStart(7), 'ms', name);
}
await context.close();
await server.stop();
