// pitwall's version (package.json's), kept with the tools since the job host checks it too.
export { pitwallVersion } from "../tools/pitwall-version.js";
