"""Exchange with other tools: weights as safetensors, the torch reference model, verification."""
