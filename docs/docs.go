// Package docs embeds the user documents that the binaries print: the
// operating guide for models that `tmx-mcp --skill` prints.
package docs

import _ "embed"

// Skill is docs/skill.md, the operating guide for models.
//
//go:embed skill.md
var Skill string
