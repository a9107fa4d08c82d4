// The rules page (`/rules`) and the credits (`/about`). (Being written.)
import { h } from './dom.js';
export async function rules(app) { app.replaceChildren(h('h1', {}, 'Sagani')); }
export async function about(app) { app.replaceChildren(h('h1', {}, 'Sagani')); }
