;; Emacs 28+ with eglot (built in from Emacs 29; Debian 12: apt install elpa-eglot).
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(python-mode "seedlint" "lsp")))
(add-hook 'python-mode-hook #'eglot-ensure)
