// The MCP contract over every transport and era (LEGS), against the example shelf: each leg is started once and
// its client runs all four parts — resources, tools and prompts, the Skills extension, errors (test/mcp/contract/).
import { describeContract } from "../support/contract.js";
import { errorsContract } from "./contract/errors.js";
import { resourcesContract } from "./contract/resources.js";
import { skillsContract } from "./contract/skills.js";
import { toolsAndPromptsContract } from "./contract/tools-prompts.js";

describeContract({
  resources: resourcesContract,
  "tools and prompts": toolsAndPromptsContract,
  "skills extension": skillsContract,
  errors: errorsContract,
});
