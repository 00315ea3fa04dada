// The session's event bus: the generic bus (tools/event-bus.ts) carrying PitwallEvent.
export { EventBus, type Listener } from "../tools/event-bus.js";
