// Finds the images in a recorded request body, whichever API's shape it has: Anthropic image blocks
// (in user content and inside tool_result), Chat Completions image_url data URLs, Responses
// input_image parts (in messages and function_call_output), so a test can assert what was sent.

import type { RecordedImage } from "./script.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fromDataUrl(url: unknown, where: RecordedImage["in"]): RecordedImage[] {
  if (typeof url !== "string") return [];
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? [{ in: where, mimeType: match[1]!, data: match[2]! }] : [];
}

function partImages(part: unknown, where: RecordedImage["in"]): RecordedImage[] {
  if (!isRecord(part)) return [];
  switch (part["type"]) {
    case "image": {
      const source = part["source"];
      if (!isRecord(source) || source["type"] !== "base64") return [];
      return [{ in: where, mimeType: String(source["media_type"]), data: String(source["data"]) }];
    }
    case "image_url":
      return isRecord(part["image_url"]) ? fromDataUrl(part["image_url"]["url"], where) : [];
    case "input_image":
      return fromDataUrl(part["image_url"], where);
    case "tool_result":
      return listImages(part["content"], "tool_result");
    default:
      return [];
  }
}

function listImages(content: unknown, where: RecordedImage["in"]): RecordedImage[] {
  return Array.isArray(content) ? content.flatMap((part) => partImages(part, where)) : [];
}

export function imagesOf(body: unknown): RecordedImage[] {
  if (!isRecord(body)) return [];
  const items = Array.isArray(body["messages"]) ? body["messages"] : Array.isArray(body["input"]) ? body["input"] : [];
  return items.flatMap((item: unknown): RecordedImage[] => {
    if (!isRecord(item)) return [];
    if (item["type"] === "function_call_output") return listImages(item["output"], "tool_result");
    return listImages(item["content"], "user");
  });
}
