intent.yaml: error: cannot read: No such file or directory
