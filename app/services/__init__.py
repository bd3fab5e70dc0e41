"""Business rules: one public function per use case. No Flask here, no os.environ."""
