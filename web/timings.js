// What tests and the closing note measure: the first render and each move's and preview's round
// trip as the page sees it (from the click to the table showing the answer), and each redraw, in
// ms (`window.saganiTimings`).

export const timings = (window.saganiTimings = window.saganiTimings || { firstRender: null, moves: [], previews: [], renders: [] });

/// Notes the time from `started` until the frame showing the change is painted.
export function painted(started, list) {
  requestAnimationFrame(() => setTimeout(() => list.push(performance.now() - started), 0));
}
