"""Model families (the encoder-decoder Transformer, the BERT encoder), found through registry."""
