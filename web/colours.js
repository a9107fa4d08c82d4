// The game's colours, in one place: the four elements, the seats, the Cacophony discs. No DOM
// here, so that the colour check (scripts/colours.mjs, run by web/e2e/tests/colours.test.mjs)
// can read the very values the page draws with.
//
// Exports:
//   PALETTE[el]      {color, dark, tint, ink, wash} for 'fire' 'water' 'earth' 'air'.
//   SEAT_COLORS      a colour per seat (score markers, discs, names).
//   CACOPHONY_COLOR  the red of the Cacophony discs.
//   NEUTRAL_DISC     the colour of discs that belong to no seat.

/// The element colours: vermilion, blue, forest green and sunny yellow, far apart in lightness
/// as well as in hue, so that they stay apart for colour-blind players; each element also has
/// its letter and its emblem everywhere. `color` is the face of an unfinished tile, `dark` the
/// back of a completed one (earth's green is as dark as it can be and still stand apart from
/// Fire's vermilion under protanopia; its back is darker still).
/// `dark`: outlines and plaques; `tint`: the face of a tile; `ink`: text on the element colour;
/// `wash`: the colour and opacity of the big emblem on a face.
export const PALETTE = {
  fire: { color: '#e0561a', dark: '#8f2e08', tint: '#fde6d8', ink: '#ffffff', wash: ['#e0561a', 0.2] },
  water: { color: '#1565c0', dark: '#0a3c78', tint: '#dce9f8', ink: '#ffffff', wash: ['#1565c0', 0.16] },
  earth: { color: '#145830', dark: '#0d240a', tint: '#dfecd5', ink: '#ffffff', wash: ['#145830', 0.14] },
  air: { color: '#f7d23e', dark: '#7d6100', tint: '#fdf5d2', ink: '#3b2e00', wash: ['#b08a00', 0.16] },
};

/// Seat colours for score markers, discs and names: plum, mint, lilac and slate. Chosen by
/// scripts/colours.mjs to stay apart from each other, from the Cacophony red and from the four
/// element colours their discs lie on, for normal vision and the three common colour-vision
/// deficiencies (a seat's disc once all but vanished on a Fire tile).
export const SEAT_COLORS = ['#4b0f3c', '#5ad2b4', '#b4a5ff', '#787878'];
/// Cacophony discs: red, and marked with a jagged line so they are not told by colour alone.
export const CACOPHONY_COLOR = '#c8102e';
export const NEUTRAL_DISC = '#3d3a36';
