// What tests and the closing note measure: the first render and each move's and preview's round
// trip as the page sees it (from the click to the table showing the answer), and each redraw, in
// ms (`window.saganiTimings`). A move's round trip is also split where its time goes
// (`moveParts`: waiting for the server's answer, drawing it, and the frame until it is painted).

export const timings = (window.saganiTimings = window.saganiTimings || { firstRender: null, moves: [], moveParts: [], previews: [], renders: [] });

/// Notes the time from `started` until the frame showing the change is painted (and, given
/// `parts` {answered, drawn}, where it went).
export function painted(started, list, parts = null) {
  requestAnimationFrame(() => setTimeout(() => {
    const now = performance.now();
    list.push(now - started);
    if (parts) timings.moveParts.push({ server: parts.answered - started, draw: parts.drawn - parts.answered, frame: now - parts.drawn });
  }, 0));
}
