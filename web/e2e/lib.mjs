// Helpers for the end-to-end tests of the browser page: a real `sagani serve` on a fresh
// database, and Debian's headless Chromium driven by playwright-core (never a browser that
// Playwright downloads: that cannot work here).
//
//   startServer({botThinkMs, deckSeed, extraArgs})  -> {url, stop(), logs(), child, dir}
//   launchBrowser()            -> a Playwright BrowserContext with its own fresh profile
//   watchErrors(page)          -> array of console errors and uncaught page errors (live)
//   artifactsDir()             -> web/e2e/artifacts/ (created)
//   screenshot(page, name)     -> saves artifacts/<name>.png
//
// One launchBrowser() per player: each is a separate Chromium process with its own
// --user-data-dir, a directory made here with mkdtemp, passed explicitly through
// launchPersistentContext and removed when the context closes.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** The repository root (this file is web/e2e/lib.mjs). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where screenshots go; gitignored. */
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

/** How long `sagani serve` may take to print its address. */
const SERVER_START_TIMEOUT_MS = 60_000;

/** The Chromium flags the machine's notes say headless Chromium needs here (root, no network). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Everything still running or on disk when the process ends: servers are killed, temp dirs
// removed. Synchronous, because 'exit' handlers cannot wait.
const cleanups = new Set();
// The browsers open now. A test that fails halfway leaves its browsers open, and `node --test`
// would wait for them until its time-out: they are closed after the file's tests.
const openBrowsers = new Set();
after(async () => {
  await Promise.all([...openBrowsers].map((c) => c.close().catch(() => {})));
});
function runCleanups() {
  for (const fn of cleanups) {
    try {
      fn();
    } catch {
      // Best effort on the way out.
    }
  }
  cleanups.clear();
}
process.on('exit', runCleanups);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    runCleanups();
    // Exit as a shell reports death by that signal. (Re-raising it would not end the process:
    // Playwright's own handlers for these signals would still be listening.)
    process.exit(128 + constants.signals[signal]);
  });
}

/** The sagani binary: $SAGANI_BIN, else target/debug/sagani, built with cargo if missing. */
export async function saganiBin() {
  if (process.env.SAGANI_BIN) {
    const bin = resolve(process.env.SAGANI_BIN);
    if (!existsSync(bin)) throw new Error(`SAGANI_BIN=${bin} does not exist`);
    return bin;
  }
  const targetDir = process.env.CARGO_TARGET_DIR
    ? resolve(REPO_ROOT, process.env.CARGO_TARGET_DIR)
    : join(REPO_ROOT, 'target');
  const bin = join(targetDir, 'debug', 'sagani');
  if (!existsSync(bin)) {
    process.stderr.write(`# ${bin} is missing: cargo build -p sagani-cli\n`);
    const code = await new Promise((done, fail) => {
      // Cargo's output goes to our stderr: the test runner reads stdout.
      const cargo = spawn('cargo', ['build', '-p', 'sagani-cli'], {
        cwd: REPO_ROOT,
        stdio: ['ignore', process.stderr, process.stderr],
      });
      cargo.on('error', fail);
      cargo.on('exit', (c, sig) => done(c ?? sig));
    });
    if (code !== 0) throw new Error(`cargo build -p sagani-cli failed (${code})`);
    if (!existsSync(bin)) throw new Error(`cargo build -p sagani-cli did not make ${bin}`);
  }
  return bin;
}

/**
 * Start `sagani serve` on a free loopback port with a new database in a fresh temp dir, and
 * with the per-address and per-token limits off (the tests play many moves from one address).
 *
 * @param {{botThinkMs?: number, deckSeed?: number}} [options] deckSeed: deal decks from a seed
 *   (`sagani serve --deck-seed`), so a game can be repeated
 * @returns {Promise<{url: string, stop: () => Promise<void>, restart: () => Promise<void>,
 *   logs: () => string, child: import('node:child_process').ChildProcess, dir: string}>}
 *   url is like http://127.0.0.1:PORT (no trailing slash); logs() is the server's stderr so far;
 *   restart() kills the server with SIGKILL and starts it again on the same port and database.
 */
export async function startServer({ botThinkMs = 200, deckSeed, extraArgs = [] } = {}) {
  const bin = await saganiBin();
  const dir = await mkdtemp(join(tmpdir(), 'sagani-e2e-server-'));
  const db = join(dir, 'games.db');
  const argsFor = (addr) => [
    'serve',
    '--addr', addr,
    '--db', db,
    '--bot-think-ms', String(botThinkMs),
    '--open-games-per-ip', '0',
    '--moves-per-ip', '0',
    '--moves-per-token', '0',
    '--max-sockets-per-ip', '0',
    ...(deckSeed === undefined ? [] : ['--deck-seed', String(deckSeed)]),
    ...extraArgs,
  ];
  // Keep the last 256 KiB of stderr: printed if start-up fails, and available via logs().
  let stderr = '';
  let child = null;
  let exited = null;
  const kill = () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const cleanup = () => {
    kill();
    rmSync(dir, { recursive: true, force: true });
  };
  cleanups.add(cleanup);

  /// Starts `sagani serve` on `addr`; resolves to its URL once it prints it.
  const launch = (addr) => {
    const args = argsFor(addr);
    child = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const me = child;
    me.stderr.setEncoding('utf8');
    me.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.length > 256 * 1024) stderr = stderr.slice(-256 * 1024);
    });
    exited = new Promise((done) => me.once('exit', (code, signal) => done({ code, signal })));
    const gone = exited;
    const stdoutLines = [];
    const lines = createInterface({ input: me.stdout, crlfDelay: Infinity });
    // Lines after the address line still get read (so the pipe never fills) and are dropped.
    return new Promise((done, fail) => {
      let settled = false;
      const failWith = (why) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        cleanups.delete(cleanup);
        cleanup();
        fail(
          new Error(
            `sagani serve did not start: ${why}\n` +
              `command: ${bin} ${args.join(' ')}\n` +
              `stdout:\n${stdoutLines.join('\n')}\n` +
              `stderr:\n${stderr}`,
          ),
        );
      };
      const timer = setTimeout(
        () => failWith(`no address line within ${SERVER_START_TIMEOUT_MS / 1000} s`),
        SERVER_START_TIMEOUT_MS,
      );
      lines.on('line', (line) => {
        stdoutLines.push(line);
        const m = /^sagani server on (http:\/\/127\.0\.0\.1:\d+) \(database /.exec(line);
        if (m && !settled) {
          settled = true;
          clearTimeout(timer);
          done(m[1]);
        }
      });
      me.once('error', (e) => failWith(`cannot run ${bin}: ${e.message}`));
      gone.then(({ code, signal }) => failWith(`it exited (code ${code}, signal ${signal})`));
    });
  };

  const server = { url: await launch('127.0.0.1:0'), logs: () => stderr, dir };
  server.child = child;

  /// Kills the server (SIGKILL: no clean shutdown) and starts it again on the same address
  /// and database, as a crash and a restart would.
  server.restart = async () => {
    kill();
    await exited;
    const again = await launch(new URL(server.url).host);
    assert.equal(again, server.url);
    server.child = child;
  };

  let stopped = null;
  server.stop = () => {
    stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM'); // The server shuts down cleanly on SIGTERM...
        const late = setTimeout(kill, 5_000); // ...or is killed.
        await exited;
        clearTimeout(late);
      }
      cleanups.delete(cleanup);
      await rm(dir, { recursive: true, force: true });
    })();
    return stopped;
  };
  return server;
}

/**
 * Launch Debian's headless Chromium with a fresh profile: a new temp dir from mkdtemp, passed
 * as --user-data-dir by launchPersistentContext, and removed by context.close() (and at exit).
 * Returns the BrowserContext; call it once per player: two calls give two separate browsers
 * that share no cookies, storage or cache. The context starts with one blank page
 * (context.pages()[0]); context.newPage() opens more.
 *
 * @param {import('playwright-core').BrowserContextOptions} [options] extra context options
 *   (viewport, locale, ...)
 * @returns {Promise<import('playwright-core').BrowserContext & {userDataDir: string}>}
 */
export async function launchBrowser(options = {}) {
  const userDataDir = await mkdtemp(join(tmpdir(), 'sagani-e2e-chromium-'));
  // At exit, Chromium may still be running (Playwright's own exit handler, which kills it, can
  // run after this one) and would write into the dir again: kill it first.
  const removeDir = () => {
    killChromiumUsing(userDataDir);
    rmSync(userDataDir, { recursive: true, force: true, maxRetries: 5 });
  };
  cleanups.add(removeDir);
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      ...options,
    });
  } catch (e) {
    cleanups.delete(removeDir);
    removeDir();
    throw e;
  }
  openBrowsers.add(context);
  const close = context.close.bind(context);
  context.close = async (...args) => {
    try {
      await close(...args);
    } finally {
      openBrowsers.delete(context);
      cleanups.delete(removeDir);
      await rm(userDataDir, { recursive: true, force: true });
    }
  };
  context.userDataDir = userDataDir;
  return context;
}

/** Chromium's own request for /favicon.ico (made for any page, JSON too) answered 404. */
export const FAVICON_404 = /^console\.error: Failed to load resource: .* 404 .*\/favicon\.ico:\d+\)$/;

/** SIGKILL the Chromium processes (and their process group) started with this profile dir. */
function killChromiumUsing(userDataDir) {
  const flag = `--user-data-dir=${userDataDir}`;
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return; // No /proc: Playwright's own exit handler is all there is.
  }
  for (const pid of pids) {
    let argv;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // Gone already.
    }
    if (!argv.includes(flag)) continue;
    for (const target of [-Number(pid), Number(pid)]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Not a group leader, or gone already.
      }
    }
  }
}

/**
 * Collect the page's console errors and uncaught exceptions (and a crash) from now on.
 * Assert the array empty at the end of a test: `assert.deepEqual(errors, [])`.
 * A 404 for /favicon.ico, which Chromium asks for by itself, is not collected unless
 * keepFavicon is set.
 *
 * @param {import('playwright-core').Page} page
 * @param {{ignore?: RegExp[], keepFavicon?: boolean}} [options] messages matching any of
 *   `ignore` are not collected
 * @returns {string[]}
 */
export function watchErrors(page, { ignore = [], keepFavicon = false } = {}) {
  const skip = keepFavicon ? ignore : [...ignore, FAVICON_404];
  const errors = [];
  const add = (text) => {
    if (!skip.some((re) => re.test(text))) errors.push(text);
  };
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const { url, lineNumber } = msg.location();
    add(`console.error: ${msg.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
  });
  page.on('pageerror', (err) => add(`uncaught: ${err.stack || err.message || String(err)}`));
  page.on('crash', () => add('page crashed'));
  return errors;
}

/**
 * Waits until the page's animations have run out (those that end: a pulse that repeats for
 * ever is left alone) and the next frame is painted, so a screenshot shows the table at rest.
 *
 * @param {import('playwright-core').Page} page
 */
export async function settled(page) {
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => {})));
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  });
}

/** web/e2e/artifacts/, created if missing. */
export function artifactsDir() {
  mkdirSync(ARTIFACTS, { recursive: true });
  return ARTIFACTS;
}

/**
 * Save a full-page screenshot as artifacts/<name>.png; returns its path.
 *
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
export async function screenshot(page, name) {
  await settled(page);
  const path = join(artifactsDir(), `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
