// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

// A token with a Merkle-proof airdrop, signed vouchers for off-chain allocations (EIP-712 with
// a nonce per claimer), a claim window, and sweeping of unclaimed tokens after it closes.
// Robustness corpus for vigil's deep layers.

library MerkleProof {
    function verify(bytes32[] memory proof, bytes32 root, bytes32 leaf) internal pure returns (bool) {
        bytes32 computed = leaf;
        for (uint256 i = 0; i < proof.length; i++) {
            bytes32 p = proof[i];
            computed = computed <= p ? keccak256(abi.encodePacked(computed, p)) : keccak256(abi.encodePacked(p, computed));
        }
        return computed == root;
    }
}

library ECDSA {
    function recover(bytes32 hash, bytes memory signature) internal pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return address(0);
        if (v != 27 && v != 28) return address(0);
        return ecrecover(hash, v, r, s);
    }
}

contract DropToken {
    string public constant name = "Drop";
    string public constant symbol = "DRP";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(address holder, uint256 supply) {
        totalSupply = supply;
        balanceOf[holder] = supply;
        emit Transfer(address(0), holder, supply);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        require(balanceOf[msg.sender] >= amount, "balance");
        unchecked {
            balanceOf[msg.sender] -= amount;
        }
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 a = allowance[from][msg.sender];
        require(a >= amount && balanceOf[from] >= amount, "allowance/balance");
        if (a != type(uint256).max) allowance[from][msg.sender] = a - amount;
        unchecked {
            balanceOf[from] -= amount;
        }
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
        return true;
    }
}

contract MerkleAirdrop {
    DropToken public immutable token;
    address public owner;
    address public voucherSigner;
    bytes32 public merkleRoot;
    uint256 public claimStart;
    uint256 public claimEnd;
    uint256 public totalClaimed;

    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(address claimer,uint256 amount,uint256 nonce,uint256 deadline)");
    bytes32 public immutable DOMAIN_SEPARATOR;

    mapping(uint256 => uint256) private claimedBitMap;
    mapping(address => uint256) public voucherNonce;

    event Claimed(uint256 index, address account, uint256 amount);
    event VoucherRedeemed(address account, uint256 amount, uint256 nonce);
    event RootUpdated(bytes32 root);
    event Swept(address to, uint256 amount);

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    modifier whileOpen() {
        require(block.timestamp >= claimStart && block.timestamp < claimEnd, "claim window closed");
        _;
    }

    constructor(bytes32 root, uint256 supply, uint256 window) {
        owner = msg.sender;
        voucherSigner = msg.sender;
        merkleRoot = root;
        claimStart = block.timestamp;
        claimEnd = block.timestamp + (window == 0 ? 90 days : window);
        token = new DropToken(address(this), supply);
        DOMAIN_SEPARATOR = keccak256(
            abi.encode(
                keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
                keccak256("MerkleAirdrop"),
                keccak256("1"),
                block.chainid,
                address(this)
            )
        );
    }

    function isClaimed(uint256 index) public view returns (bool) {
        uint256 word = claimedBitMap[index / 256];
        uint256 mask = 1 << (index % 256);
        return word & mask == mask;
    }

    function _setClaimed(uint256 index) private {
        claimedBitMap[index / 256] |= 1 << (index % 256);
    }

    function claim(uint256 index, address account, uint256 amount, bytes32[] calldata proof) external whileOpen {
        require(!isClaimed(index), "already claimed");
        bytes32 leaf = keccak256(abi.encodePacked(index, account, amount));
        require(MerkleProof.verify(proof, merkleRoot, leaf), "invalid proof");
        _setClaimed(index);
        totalClaimed += amount;
        require(token.transfer(account, amount), "transfer failed");
        emit Claimed(index, account, amount);
    }

    function redeemVoucher(uint256 amount, uint256 deadline, bytes calldata signature) external whileOpen {
        require(block.timestamp <= deadline, "voucher expired");
        uint256 nonce = voucherNonce[msg.sender]++;
        bytes32 structHash = keccak256(abi.encode(VOUCHER_TYPEHASH, msg.sender, amount, nonce, deadline));
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR, structHash));
        address signer = ECDSA.recover(digest, signature);
        require(signer != address(0) && signer == voucherSigner, "bad signature");
        totalClaimed += amount;
        require(token.transfer(msg.sender, amount), "transfer failed");
        emit VoucherRedeemed(msg.sender, amount, nonce);
    }

    /// Several Merkle claims in one transaction (a relayer batching for its users).
    function claimMany(uint256[] calldata indexes, address[] calldata accounts, uint256[] calldata amounts, bytes32[][] calldata proofs)
        external
        whileOpen
    {
        require(indexes.length == accounts.length && accounts.length == amounts.length && amounts.length == proofs.length, "lengths");
        for (uint256 i = 0; i < indexes.length; i++) {
            require(!isClaimed(indexes[i]), "already claimed");
            bytes32 leaf = keccak256(abi.encodePacked(indexes[i], accounts[i], amounts[i]));
            require(MerkleProof.verify(proofs[i], merkleRoot, leaf), "invalid proof");
            _setClaimed(indexes[i]);
            totalClaimed += amounts[i];
            require(token.transfer(accounts[i], amounts[i]), "transfer failed");
            emit Claimed(indexes[i], accounts[i], amounts[i]);
        }
    }

    function setRoot(bytes32 root) external onlyOwner {
        require(totalClaimed == 0, "claims started");
        merkleRoot = root;
        emit RootUpdated(root);
    }

    function setVoucherSigner(address signer) external onlyOwner {
        require(signer != address(0), "zero");
        voucherSigner = signer;
    }

    function extend(uint256 newEnd) external onlyOwner {
        require(newEnd > claimEnd && newEnd <= claimEnd + 30 days, "end");
        claimEnd = newEnd;
    }

    function sweep(address to) external onlyOwner {
        require(block.timestamp >= claimEnd, "window open");
        uint256 amount = token.balanceOf(address(this));
        require(token.transfer(to, amount), "transfer failed");
        emit Swept(to, amount);
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "zero");
        owner = newOwner;
    }

    function claimedWords(uint256 from, uint256 count) external view returns (uint256[] memory words) {
        words = new uint256[](count);
        for (uint256 i = 0; i < count; i++) words[i] = claimedBitMap[from + i];
    }
}
