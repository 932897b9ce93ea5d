// Where `seedlint lsp` comes from: the `seedlint.path` setting, the Python extension's interpreter,
// or `seedlint` on PATH, in that order (the order of ruff's, pylint's and mypy's extensions).
import { execFile } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import * as path from "node:path";

/** The command that starts the server, and where it was found. */
export interface ServerCommand {
  command: string;
  args: string[];
  source: "setting" | "interpreter" | "PATH";
}

/** Whether a file exists and may be run. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `name` on the PATH given (as the shell would find it), or undefined. */
export function onPath(name: string, pathVariable: string | undefined): string | undefined {
  const suffixes = process.platform === "win32" ? [".exe", ".cmd", ""] : [""];
  for (const folder of (pathVariable ?? "").split(path.delimiter)) {
    for (const suffix of suffixes) {
      const candidate = path.join(folder, name + suffix);
      if (folder && isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/** Whether `python -c "import seedlint.lsp"` succeeds with this interpreter. */
export function hasSeedlint(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(python, ["-c", "import seedlint.lsp.server"], { timeout: 20000 }, (error) =>
      resolve(error === null),
    );
  });
}

/** The server command, from the first place that has seedlint; undefined when none has. */
export async function findServer(
  paths: string[],
  interpreter: string | undefined,
  extraArgs: string[],
  pathVariable: string | undefined,
  importable: (python: string) => Promise<boolean> = hasSeedlint,
): Promise<ServerCommand | undefined> {
  const configured = paths.find(isExecutable);
  if (configured !== undefined) {
    return { command: configured, args: ["lsp", ...extraArgs], source: "setting" };
  }
  if (interpreter !== undefined && (await importable(interpreter))) {
    return { command: interpreter, args: ["-m", "seedlint", "lsp", ...extraArgs], source: "interpreter" };
  }
  const found = onPath("seedlint", pathVariable);
  if (found !== undefined) {
    return { command: found, args: ["lsp", ...extraArgs], source: "PATH" };
  }
  return undefined;
}
