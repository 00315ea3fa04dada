// The parts of blessed the dashboard draws with: the screen, the box and the colour tables. Its
// index module requires all 34 widgets (lists, forms, a terminal, images…) at ~15 ms of every
// start; the widget modules themselves load only what they build on.
import type { Widgets } from "blessed";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export const blessedScreen = require("blessed/lib/widgets/screen") as (options: Widgets.IScreenOptions) => Widgets.Screen;
export const blessedBox = require("blessed/lib/widgets/box") as (options: Widgets.BoxOptions) => Widgets.BoxElement;
/** @types/blessed declares only colors.match; reduce (256 → 16/8 colours) exists at run time. */
export const blessedColors = require("blessed/lib/colors") as { reduce(color: number, total: number): number };
