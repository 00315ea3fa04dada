// Images in a conversation sent to a model that takes text only (a history that began with another
// model, a read of a PNG): each image is left out and the text says so, so the request is accepted
// and the model knows what it did not see. New images from the person are refused earlier (Agent).
// Also the text every API gets for a tool result that returned only an image.
import type { Message, ToolResultMessage } from "../messages.js";
import type { ModelInfo } from "../models.js";

export function withoutImagesFor(model: ModelInfo, messages: Message[]): Message[] {
  if (!model.textOnly) return messages;
  return messages.map((m) => {
    if (m.role === "assistant" || !m.images?.length) return m;
    const { images, ...rest } = m;
    const names = images.map((i) => i.name ?? "image").join(", ");
    const note = `[${images.length === 1 ? "An image was" : `${images.length} images were`} not sent (${names}): ${model.id} takes text only.]`;
    return { ...rest, content: rest.content ? `${rest.content}\n${note}` : note };
  });
}

/** A tool result's text as sent: never empty, which the APIs refuse. */
export function resultText(m: ToolResultMessage): string {
  return m.content || (m.images?.length ? "(image)" : "(no output)");
}
