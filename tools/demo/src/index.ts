export { sizeTool, whichTool } from "./demo-tools.js";
