//go:build tools

// Package tools pins the h2spec conformance suite the Brisk tests run (see install.sh).
package tools

import _ "github.com/summerwind/h2spec/cmd/h2spec"
