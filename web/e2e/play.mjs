// Playing Sagani through the page, the way a person does: by clicking (or with the keyboard).

import assert from 'node:assert/strict';

export const table = (page) => page.locator('[data-testid=table]');

export async function version(page) {
  return Number(await table(page).getAttribute('data-version'));
}

/// Waits until this page must act or the game is over: the expected decision, or 'over'.
export async function waitForTurn(page, timeout = 60_000) {
  await page.waitForSelector('[data-testid=table][data-my-turn=true], [data-testid=table][data-status=over]', { timeout });
  if ((await table(page).getAttribute('data-status')) === 'over') return 'over';
  return table(page).getAttribute('data-expects');
}

/// Waits until the page shows a version after `before`.
export async function waitForVersion(page, before, timeout = 30_000) {
  await page.waitForFunction(
    (v) => Number(document.querySelector('[data-testid=table]')?.dataset.version) > v,
    before,
    { timeout },
  );
}

/// Waits until the score strip names seat `seat`: `name` on its chip, `full` in its tooltip.
export async function showsSeat(page, seat, name, full) {
  await page.waitForFunction(([i, n, f]) => {
    const chip = document.querySelector(`[data-testid=strip] [data-testid=tab-${i}]`);
    return chip && chip.innerText.includes(n) && chip.title === f;
  }, [seat, name, full]);
}

/// Creates a game on the home page: `seats` after mine, as the seat selects' values.
export async function createGame(page, url, seats) {
  await page.goto(`${url}/`);
  await page.selectOption('[data-testid=players]', String(seats.length + 1));
  for (const [i, choice] of seats.entries()) await page.selectOption(`[data-testid=seat-${i + 1}]`, choice);
  await page.click('[data-testid=create]');
  await page.waitForSelector('[data-testid=table]');
  return new URL(page.url()).pathname.split('/')[2];
}

/// Makes the decision the page asks for, by clicking. `n` varies the choices: which tile,
/// which cell, turning the tile, passing. It takes the intermezzo whenever it may. Returns what
/// it did. `check`: the server's URL, to compare each preview shown with the server's own.
export async function playByClicking(page, seat, n, { shots, check } = {}) {
  const expects = await waitForTurn(page);
  if (expects === 'over') return 'over';
  const before = await version(page);
  if (expects === 'turn') {
    const store = page.locator('[data-testid=intermezzo-choice]');
    if ((await store.count()) > 0) {
      await store.click();
      await waitForVersion(page, before);
      return 'intermezzo';
    }
    const offer = page.locator('[data-testid=offer-tile]:not([disabled])');
    await offer.nth(n % (await offer.count())).click();
  } else if (expects === 'intermezzo-pick') {
    if (n % 2 === 1) {
      await page.click('[data-testid=pass]');
      await waitForVersion(page, before);
      return 'pass';
    }
    await page.locator('[data-testid=intermezzo-tile]:not([disabled])').first().click();
  }
  // place-drawn and place-revealed: the tile is chosen already.
  await page.waitForSelector('[data-testid=placing]');
  const cells = page.locator(`[data-testid=display-${seat}] .cell.legal`);
  const count = await cells.count();
  assert.ok(count > 0, 'a tile to place has legal cells');
  await cells.nth((n * 7) % count).click();
  if (n % 3 === 0) await page.click('[data-testid=rotate-right]');
  if (n % 5 === 0) await page.click('[data-testid=rotate-left]');
  await page.waitForSelector('[data-testid=preview-score]');
  if (check) await checkPreview(page, check);
  if (shots) await shots();
  await page.click('[data-testid=confirm]');
  await waitForVersion(page, before);
  return expects;
}

/// How many tiles the page draws on a seat's display.
export async function tilesOn(page, seat) {
  return page.locator(`[data-testid=display-${seat}] g.tile:not(.ghost):not(.chosen)`).count();
}

/// The preview on the page says what the engine says of that placement.
export async function checkPreview(page, url) {
  const game = new URL(page.url()).pathname.split('/')[2];
  const move = JSON.parse(await page.getAttribute('[data-testid=preview]', 'data-move'));
  const answer = await fetch(`${url}/api/games/${game}/preview`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ move }),
  });
  const { preview: p } = await answer.json();
  const text = async (id) => page.textContent(`[data-testid=preview-${id}]`);
  const covered = await text('covered');
  if (p.covered.length === 0) assert.equal(covered, 'Covers no arrow.');
  else assert.ok(covered.startsWith(`Covers ${p.covered.length} arrow`), `${covered} vs ${JSON.stringify(p.covered)}`);
  const completed = await text('completed');
  // Tiles are named as players name them: "Air 3", never by id.
  const tiles = (await (await fetch(`${url}/api/tiles`)).json()).tiles;
  const name = (id) => {
    const info = tiles.find((t) => t.id === id);
    return `${info.element[0].toUpperCase()}${info.element.slice(1)} ${info.value}`;
  };
  for (const t of p.completed) assert.ok(completed.includes(name(t)), `${completed} names ${name(t)}`);
  if (p.completed.length) assert.match(completed, new RegExp(`\\+${p.points} points?\\.`), completed);
  else assert.equal(completed, 'Completes no tile.');
  const cacophony = await text('cacophony');
  assert.equal(cacophony === 'No Cacophony.', p.cacophony === 0, cacophony);
  if (p.cacophony) assert.ok(cacophony.startsWith(`Costs ${p.cacophony} Cacophony`), cacophony);
  const sign = p.score_change >= 0 ? '+' : '−';
  assert.ok((await text('score')).startsWith(`Score ${sign}${Math.abs(p.score_change)} → ${p.score_after}`));
  // The arrows to be covered are ringed on the display.
  assert.equal(await page.locator('.will-cover').count(), p.covered.length);
}
