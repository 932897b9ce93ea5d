;;; emacs.el --- Drives Emacs (eglot) in batch as a user would: with init.el (docs/editors.md),
;;; open a file, read the diagnostics Flymake shows, apply the preferred code action, read them
;;; again.  Writes what it saw to $RESULT.
(load (expand-file-name "init.el" (getenv "DRIVERS")))
(require 'eglot)

(defvar seen nil)
(defun say (line) (push line seen))
(defun codes ()
  (string-join
   (sort (mapcar (lambda (d)
                   (let ((text (flymake-diagnostic-text d)))
                     (if (string-match "SL[0-9]+" text) (match-string 0 text) "?")))
                 (flymake-diagnostics))
         #'string<)
   ","))
(defun wait-until (predicate)
  "Let the server's messages and Flymake's timers run until PREDICATE holds ($WAIT_MS at most).
Batch Emacs is never idle, so what eglot and Flymake do after idle time is done here."
  (let ((deadline (+ (float-time) (/ (string-to-number (getenv "WAIT_MS")) 1000.0))))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (eglot--signal-textDocument/didChange)
      (accept-process-output nil 0.05)
      (flymake-start))))

(find-file "train.py")
(run-hooks 'post-command-hook)  ; the command loop's turn, where `eglot-ensure' connects
(wait-until (lambda () (flymake-diagnostics)))
(say (concat "before: " (codes)))

(goto-char (point-min))
(forward-line 2)
(let ((preferred (seq-find (lambda (action) (plist-get action :isPreferred))
                           (eglot-code-actions (point) (point)))))
  (when preferred
    (eglot--apply-workspace-edit (plist-get preferred :edit))
    (say (concat "applied: " (plist-get preferred :title)))))
(wait-until (lambda () (null (flymake-diagnostics))))
(say (concat "after: " (codes)))
(say (concat "text: " (string-replace "\n" "\\n" (buffer-string))))
(with-temp-file (getenv "RESULT") (insert (string-join (reverse seen) "\n") "\n"))
(eglot-shutdown (eglot-current-server))
(kill-emacs 0)
