// Where the extension finds `seedlint lsp`: the setting, then the Python extension's interpreter,
// then PATH; nothing found is said (undefined), never guessed.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { test } from "node:test";

import { findServer, hasSeedlint, onPath } from "../src/server";

function executable(folder: string, name: string, status = 0): string {
  const file = path.join(folder, name);
  writeFileSync(file, `#!/bin/sh\nexit ${status}\n`);
  chmodSync(file, 0o755);
  return file;
}

const folder = mkdtempSync(path.join(tmpdir(), "seedlint-vscode-"));
const bin = mkdtempSync(path.join(tmpdir(), "seedlint-path-"));
const configured = executable(folder, "seedlint");
const onThePath = executable(bin, "seedlint");
writeFileSync(path.join(folder, "not-executable"), "");
const yes = async () => true;
const no = async () => false;

test("the setting comes first: its first executable entry, with lsp and the extra arguments", async () => {
  const missing = path.join(folder, "missing");
  const server = await findServer([missing, configured], "/usr/bin/python3", ["--x"], bin, yes);
  assert.deepEqual(server, { command: configured, args: ["lsp", "--x"], source: "setting" });
});

test("then the interpreter of the Python extension, when it has seedlint", async () => {
  const server = await findServer([], "/venv/bin/python", [], bin, yes);
  assert.deepEqual(server, {
    command: "/venv/bin/python",
    args: ["-m", "seedlint", "lsp"],
    source: "interpreter",
  });
});

test("then seedlint on PATH, when the interpreter has none", async () => {
  const server = await findServer([], "/venv/bin/python", [], `/nowhere${path.delimiter}${bin}`, no);
  assert.deepEqual(server, { command: onThePath, args: ["lsp"], source: "PATH" });
});

test("nothing anywhere: undefined", async () => {
  const entries = [path.join(folder, "not-executable")];
  assert.equal(await findServer(entries, undefined, [], "/nowhere", yes), undefined);
  assert.equal(onPath("seedlint", undefined), undefined);
});

test("an interpreter has seedlint when importing its server succeeds", async () => {
  const without = executable(folder, "python-without", 1);
  assert.equal(await hasSeedlint(executable(folder, "python-with")), true);
  assert.equal(await hasSeedlint(without), false);
  assert.equal(await hasSeedlint(path.join(folder, "no-such-python")), false);
});
