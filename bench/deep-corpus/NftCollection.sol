// SPDX-License-Identifier: MIT
pragma solidity ^0.8.10;

// An ERC721 collection with paid public mint, an allowlist phase, EIP-2981 royalties, reveal,
// per-wallet limits and owner withdrawal. Robustness corpus for vigil's deep layers.

interface IERC165 {
    function supportsInterface(bytes4 interfaceId) external view returns (bool);
}

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data) external returns (bytes4);
}

contract NftCollection is IERC165 {
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    event Revealed(string baseURI);
    event PhaseChanged(uint8 phase);

    string public name;
    string public symbol;
    address public owner;

    uint256 public constant MAX_SUPPLY = 10_000;
    uint256 public constant MAX_PER_WALLET = 5;
    uint256 public price = 0.05 ether;
    uint256 public allowlistPrice = 0.03 ether;
    uint256 public totalMinted;
    uint8 public phase; // 0 closed, 1 allowlist, 2 public

    string private _baseURI;
    string private _hiddenURI = "ipfs://hidden/";
    bool public revealed;

    address public royaltyReceiver;
    uint96 public royaltyBps = 500;

    mapping(uint256 => address) private _owners;
    mapping(address => uint256) private _balances;
    mapping(uint256 => address) private _tokenApprovals;
    mapping(address => mapping(address => bool)) private _operatorApprovals;
    mapping(address => uint256) public mintedBy;
    mapping(address => bool) public allowlist;

    uint256 private _locked = 1;

    modifier onlyOwner() {
        require(msg.sender == owner, "not owner");
        _;
    }

    modifier nonReentrant() {
        require(_locked == 1, "reentrant");
        _locked = 2;
        _;
        _locked = 1;
    }

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
        royaltyReceiver = msg.sender;
    }

    function supportsInterface(bytes4 interfaceId) external pure override returns (bool) {
        return
            interfaceId == 0x01ffc9a7 || // ERC165
            interfaceId == 0x80ac58cd || // ERC721
            interfaceId == 0x5b5e139f || // ERC721Metadata
            interfaceId == 0x2a55205a; // ERC2981
    }

    // ----- minting -----

    function setPhase(uint8 newPhase) external onlyOwner {
        require(newPhase <= 2, "phase");
        phase = newPhase;
        emit PhaseChanged(newPhase);
    }

    function setAllowlist(address[] calldata accounts, bool value) external onlyOwner {
        for (uint256 i = 0; i < accounts.length; i++) {
            allowlist[accounts[i]] = value;
        }
    }

    function allowlistMint(uint256 quantity) external payable nonReentrant {
        require(phase == 1, "allowlist closed");
        require(allowlist[msg.sender], "not allowlisted");
        require(msg.value == allowlistPrice * quantity, "wrong value");
        _mintMany(msg.sender, quantity);
    }

    function mint(uint256 quantity) external payable nonReentrant {
        require(phase == 2, "sale closed");
        require(msg.value == price * quantity, "wrong value");
        _mintMany(msg.sender, quantity);
    }

    function ownerMint(address to, uint256 quantity) external onlyOwner {
        _mintMany(to, quantity);
    }

    function _mintMany(address to, uint256 quantity) internal {
        require(quantity > 0 && quantity <= MAX_PER_WALLET, "quantity");
        require(mintedBy[to] + quantity <= MAX_PER_WALLET, "wallet limit");
        require(totalMinted + quantity <= MAX_SUPPLY, "sold out");
        mintedBy[to] += quantity;
        for (uint256 i = 0; i < quantity; i++) {
            uint256 tokenId = ++totalMinted;
            _owners[tokenId] = to;
            emit Transfer(address(0), to, tokenId);
        }
        _balances[to] += quantity;
    }

    function burn(uint256 tokenId) external {
        address holder = ownerOf(tokenId);
        require(_isApprovedOrOwner(msg.sender, tokenId), "not allowed");
        delete _tokenApprovals[tokenId];
        _balances[holder] -= 1;
        delete _owners[tokenId];
        emit Transfer(holder, address(0), tokenId);
    }

    // ----- ERC721 -----

    function balanceOf(address holder) external view returns (uint256) {
        require(holder != address(0), "zero address");
        return _balances[holder];
    }

    function ownerOf(uint256 tokenId) public view returns (address) {
        address holder = _owners[tokenId];
        require(holder != address(0), "nonexistent token");
        return holder;
    }

    function approve(address to, uint256 tokenId) external {
        address holder = ownerOf(tokenId);
        require(to != holder, "approve to owner");
        require(msg.sender == holder || _operatorApprovals[holder][msg.sender], "not allowed");
        _tokenApprovals[tokenId] = to;
        emit Approval(holder, to, tokenId);
    }

    function getApproved(uint256 tokenId) public view returns (address) {
        require(_owners[tokenId] != address(0), "nonexistent token");
        return _tokenApprovals[tokenId];
    }

    function setApprovalForAll(address operator, bool approved) external {
        require(operator != msg.sender, "approve to caller");
        _operatorApprovals[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function isApprovedForAll(address holder, address operator) public view returns (bool) {
        return _operatorApprovals[holder][operator];
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        require(_isApprovedOrOwner(msg.sender, tokenId), "not allowed");
        require(ownerOf(tokenId) == from, "wrong from");
        require(to != address(0), "to zero");
        delete _tokenApprovals[tokenId];
        _balances[from] -= 1;
        _balances[to] += 1;
        _owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        if (to.code.length > 0) {
            bytes4 ret = IERC721Receiver(to).onERC721Received(msg.sender, from, tokenId, data);
            require(ret == IERC721Receiver.onERC721Received.selector, "unsafe recipient");
        }
    }

    function _isApprovedOrOwner(address spender, uint256 tokenId) internal view returns (bool) {
        address holder = ownerOf(tokenId);
        return spender == holder || getApproved(tokenId) == spender || isApprovedForAll(holder, spender);
    }

    // ----- metadata and royalties -----

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        require(_owners[tokenId] != address(0), "nonexistent token");
        if (!revealed) return _hiddenURI;
        return string(abi.encodePacked(_baseURI, _toString(tokenId), ".json"));
    }

    function reveal(string calldata baseURI) external onlyOwner {
        require(!revealed, "already revealed");
        _baseURI = baseURI;
        revealed = true;
        emit Revealed(baseURI);
    }

    function royaltyInfo(uint256, uint256 salePrice) external view returns (address, uint256) {
        return (royaltyReceiver, (salePrice * royaltyBps) / 10_000);
    }

    function setRoyalty(address receiver, uint96 bps) external onlyOwner {
        require(bps <= 1000, "royalty too high");
        royaltyReceiver = receiver;
        royaltyBps = bps;
    }

    function setPrices(uint256 publicPrice, uint256 listPrice) external onlyOwner {
        price = publicPrice;
        allowlistPrice = listPrice;
    }

    function withdraw() external onlyOwner nonReentrant {
        uint256 amount = address(this).balance;
        (bool ok, ) = payable(owner).call{value: amount}("");
        require(ok, "withdraw failed");
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "zero");
        owner = newOwner;
    }

    function _toString(uint256 value) internal pure returns (string memory) {
        if (value == 0) return "0";
        uint256 temp = value;
        uint256 digits;
        while (temp != 0) {
            digits++;
            temp /= 10;
        }
        bytes memory buffer = new bytes(digits);
        while (value != 0) {
            digits -= 1;
            buffer[digits] = bytes1(uint8(48 + uint256(value % 10)));
            value /= 10;
        }
        return string(buffer);
    }
}
