// seedlint for VS Code: starts `seedlint lsp` (found by `server.ts`) for Python files and the Python
// cells of notebooks, and passes it the `seedlint.*` settings.
import * as vscode from "vscode";
import {
  LanguageClient,
  type LanguageClientOptions,
  RevealOutputChannelOn,
  type ServerOptions,
} from "vscode-languageclient/node";

import { findServer, type ServerCommand } from "./server";

const NOT_FOUND_SAID = "seedlint.notFoundSaid";
const INSTALL = "pip install 'seedlint[lsp]'";

let client: LanguageClient | undefined;
let log: vscode.LogOutputChannel;
let starting: Promise<void> = Promise.resolve();

/** The settings the server reads (`initializationOptions`, `workspace/didChangeConfiguration`). */
export function serverSettings(settings: vscode.WorkspaceConfiguration): Record<string, unknown> {
  const options: Record<string, unknown> = { fixAll: settings.get<boolean>("fixAll", true) };
  for (const key of ["select", "extendSelect", "ignore"]) {
    const value = settings.get<string[] | null>(key);
    if (Array.isArray(value)) {
      options[key] = value;
    }
  }
  const configuration = settings.get<string | null>("configuration");
  if (configuration) {
    options.configuration = configuration;
  }
  return options;
}

/** The Python extension's interpreter for the workspace, if that extension is installed. */
async function pythonInterpreter(): Promise<string | undefined> {
  const python = vscode.extensions.getExtension("ms-python.python");
  if (python === undefined) {
    return undefined;
  }
  try {
    const api = python.isActive ? python.exports : await python.activate();
    await api?.ready; // the interpreter it has settled on, not the one it starts with
    const environments = api?.environments;
    if (environments === undefined) {
      return undefined;
    }
    const active = environments.getActiveEnvironmentPath(vscode.workspace.workspaceFolders?.[0]?.uri);
    const resolved = await environments.resolveEnvironment(active);
    return resolved?.executable?.uri?.fsPath;
  } catch (error) {
    log.warn(`the Python extension's interpreter could not be read: ${error}`);
    return undefined;
  }
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const settings = vscode.workspace.getConfiguration("seedlint");
  if (!settings.get<boolean>("enable", true)) {
    log.info("seedlint.enable is off: the server is not started");
    return;
  }
  const server: ServerCommand | undefined = await findServer(
    settings.get<string[]>("path", []),
    await pythonInterpreter(),
    settings.get<string[]>("args", []),
    process.env.PATH,
  );
  if (server === undefined) {
    const message =
      "seedlint was found neither in seedlint.path, nor in the Python interpreter, nor on PATH: " +
      `install it with \`${INSTALL}\`.`;
    log.error(message);
    if (!context.globalState.get<boolean>(NOT_FOUND_SAID)) {
      await context.globalState.update(NOT_FOUND_SAID, true); // said once, never again
      void vscode.window.showWarningMessage(message);
    }
    return;
  }
  await context.globalState.update(NOT_FOUND_SAID, false);
  log.info(`starting ${server.command} ${server.args.join(" ")} (from ${server.source})`);
  const serverOptions: ServerOptions = { command: server.command, args: server.args };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" },
      { notebook: "*", language: "python" },
    ],
    initializationOptions: serverSettings(settings),
    outputChannel: log,
    traceOutputChannel: log,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    synchronize: { configurationSection: "seedlint" },
  };
  client = new LanguageClient("seedlint", "seedlint", serverOptions, clientOptions);
  await client.start();
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running !== undefined) {
    await running.stop();
  }
}

function restart(context: vscode.ExtensionContext): Promise<void> {
  starting = starting.then(async () => {
    await stop();
    await start(context);
  });
  return starting;
}

/** Apply `source.fixAll.seedlint` to the active editor's document. */
async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    return;
  }
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
    "vscode.executeCodeActionProvider",
    editor.document.uri,
    new vscode.Range(0, 0, editor.document.lineCount, 0),
    "source.fixAll.seedlint",
  );
  for (const action of actions ?? []) {
    if (action.edit !== undefined) {
      await vscode.workspace.applyEdit(action.edit);
    }
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  log = vscode.window.createOutputChannel("seedlint", { log: true });
  context.subscriptions.push(
    log,
    vscode.commands.registerCommand("seedlint.restart", () => restart(context)),
    vscode.commands.registerCommand("seedlint.showLogs", () => log.show()),
    vscode.commands.registerCommand("seedlint.fixAll", fixAll),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (["enable", "path", "args"].some((key) => event.affectsConfiguration(`seedlint.${key}`))) {
        void restart(context);
      }
    }),
  );
  const python = vscode.extensions.getExtension("ms-python.python");
  if (python !== undefined) {
    try {
      const api = python.isActive ? python.exports : await python.activate();
      const changed = api?.environments?.onDidChangeActiveEnvironmentPath;
      if (changed !== undefined) {
        context.subscriptions.push(changed(() => void restart(context))); // another interpreter
      }
    } catch (error) {
      log.warn(`the Python extension could not be activated: ${error}`);
    }
  }
  await restart(context);
}

export function deactivate(): Promise<void> {
  return stop();
}
