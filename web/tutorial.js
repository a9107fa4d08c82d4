// The tutorial. (Being written.)
import { h } from './dom.js';
export async function startTutorial(app) { app.replaceChildren(h('h1', {}, 'Sagani')); }
/// The coach at the table of a tutorial game: null at any other table.
export function coach() { return null; }
