// A counter bumped when rendering of markdown gets better (the markdown parser or the code
// highlighter finished loading), so cached rows are rendered again and the screen redrawn.

let generation = 0;
const listeners = new Set<() => void>();

export function renderGeneration(): number {
  return generation;
}

export function bumpRenderGeneration(): void {
  generation++;
  for (const listener of listeners) listener();
}

export function onRenderGenerationChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
