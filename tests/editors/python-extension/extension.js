// A stand-in for the Python extension (ms-python.python) in seedlint's VS Code tests, which cannot
// install the real one (neither the Marketplace nor Open VSX is reachable): the part of its published
// API (`@vscode/python-extension`'s `environments`) that seedlint's extension uses. The active
// interpreter is the `python.defaultInterpreterPath` setting; changing it is picking another one.
const vscode = require("vscode");

function activate(context) {
  const changed = new vscode.EventEmitter();
  const interpreter = () =>
    vscode.workspace.getConfiguration("python").get("defaultInterpreterPath", "python");
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("python.defaultInterpreterPath")) {
        changed.fire({ id: interpreter(), path: interpreter(), resource: undefined });
      }
    }),
  );
  return {
    ready: Promise.resolve(),
    environments: {
      getActiveEnvironmentPath: () => ({ id: interpreter(), path: interpreter() }),
      resolveEnvironment: async (environment) => {
        const executable = typeof environment === "string" ? environment : environment.path;
        return { id: executable, path: executable, executable: { uri: vscode.Uri.file(executable) } };
      },
      onDidChangeActiveEnvironmentPath: changed.event,
    },
  };
}

module.exports = { activate };
